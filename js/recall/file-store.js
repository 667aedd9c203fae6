/**
 * file-store.js — a store of the state stores' shape (async get, put, delete of JSON text)
 * over files in one directory, for Node: what `midfold recall FILE ID` reads an archived
 * session from, and an archive that outlives the process. One file per key, its name the
 * key percent-encoded (no key can name a path outside the directory); a put writes a
 * temporary file and renames it over the old one, so a reader never sees half a value.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MidfoldError } from '../core/errors.js';

/**
 * @param {string} directory created at the first put when missing
 * @returns {{directory: string, get(key: string): Promise<string | null>, put(key: string, value: string): Promise<void>, delete(key: string): Promise<void>}}
 */
export function fileStateStore(directory) {
  if (typeof directory !== 'string' || !directory) throw new MidfoldError('invalid-option', 'fileStateStore needs a directory path');
  const pathOf = (key) => join(directory, encodeURIComponent(key).replace(/\./g, '%2E') + '.json');
  let counter = 0;
  return {
    directory,
    async get(key) {
      try {
        return await readFile(pathOf(key), 'utf8');
      } catch (e) {
        if (e && e.code === 'ENOENT') return null;
        throw e;
      }
    },
    async put(key, value) {
      await mkdir(directory, { recursive: true });
      const temp = `${pathOf(key)}.${process.pid}.${counter++}.tmp`;
      await writeFile(temp, value, 'utf8');
      await rename(temp, pathOf(key));
    },
    async delete(key) { await rm(pathOf(key), { force: true }); },
  };
}

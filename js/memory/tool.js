/**
 * memory/tool.js — Anthropic's memory tool (memory_20250818) on a store the host owns, for
 * Claude (the built-in tool type) and for any model that calls JSON-schema functions.
 *
 * The command semantics and every path check live in C (src/memory_*.c). A command runs
 * in steps: C reads the tool input plus what has been fetched from the store so far and
 * either names what else it needs (file texts, listings, sizes) or gives the result text
 * and the store changes to make. This file fetches, makes the changes, and keeps
 * commands whose paths overlap (the same file, or a directory and anything in it) in the
 * order they were called, across every tool on the same store in this process. Tool-level failures, store failures included, come back as
 * `{content, isError: true}`, never as exceptions.
 *
 * The C side is a wasm module of its own (wasm/midfold-memory.wasm, wasm/bridge_memory.c),
 * so that a page that never runs a memory command never downloads it. This file is
 * host-agnostic: the host entries of midfold/memory (node.js, browser.js and
 * workerd.js beside this file) say where the module comes from; a tool loads it at its first
 * command unless initMemory() already has.
 */
import { MidfoldError } from '../core/errors.js';
import { Wasm, instantiate } from '../core/wasm.js';
import { Scratch, encodeValue } from '../core/encode.js';
import { backingOf, memoryStore, utf8Length } from './stores.js';
import { optionsObject } from '../core/options.js';

const MAX_ROUNDS = 8; // view of a directory takes three steps; nothing takes more than four

const COMMANDS = ['view', 'create', 'str_replace', 'insert', 'delete', 'rename'];

function functionDefinition() {
  return {
    type: 'function',
    function: {
      name: 'memory',
      description:
        'Your persistent memory: text files under /memories that outlive this conversation. View /memories at ' +
        'the start of a task, and record progress, decisions and lasting facts as you work. Commands: view (a ' +
        'file with line numbers, or a directory two levels deep), create (a new file), str_replace (replace ' +
        'text that occurs exactly once), insert (add lines after a line number; 0 puts them first), delete (a ' +
        'file or a whole directory), rename (move a file or directory; never overwrites).',
      parameters: {
        type: 'object',
        properties: {
          command: { type: 'string', enum: COMMANDS, description: 'The operation.' },
          path: { type: 'string', description: 'The file or directory, starting with /memories (every command but rename).' },
          view_range: {
            type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2,
            description: 'view, optional: [first line, last line], 1-based; -1 as the last line reads to the end.',
          },
          file_text: { type: 'string', description: 'create: the text of the new file.' },
          old_str: { type: 'string', description: 'str_replace: the exact text to replace; it must occur exactly once.' },
          new_str: { type: 'string', description: 'str_replace: the text that replaces it (empty to delete it).' },
          insert_line: { type: 'integer', minimum: 0, description: 'insert: the line after which the text goes; 0 for the top.' },
          insert_text: { type: 'string', description: 'insert: the text to insert.' },
          old_path: { type: 'string', description: 'rename: the current path.' },
          new_path: { type: 'string', description: 'rename: the new path, which must not exist yet.' },
        },
        required: ['command'],
        additionalProperties: false,
      },
    },
  };
}

function wholeNumber(value, name, fallback, min, max) {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new MidfoldError('invalid-option', `${name} must be a whole number from ${min} to ${max}, got ${String(value)}`);
  return value;
}

function checkStore(store) {
  if (store === undefined) return memoryStore();
  if (!store || ['get', 'put', 'delete', 'list'].some((m) => typeof store[m] !== 'function'))
    throw new MidfoldError('invalid-option', 'store must have get, put, delete and list methods (see memoryStore)');
  return store;
}

function overlaps(a, b) {
  return a === b || a.startsWith(b + '/') || b.startsWith(a + '/');
}

/**
 * Commands wait for every earlier command whose paths overlap theirs. `acquire` is
 * called synchronously from execute, so waiting follows the order of the calls.
 */
class PathLocks {
  constructor() { this.held = new Set(); }

  /** @param {string[]} paths @returns {Promise<() => void>} */
  acquire(paths) {
    const waits = [];
    for (const e of this.held) if (e.paths.some((p) => paths.some((q) => overlaps(p, q)))) waits.push(e.done);
    let release;
    const entry = { paths, done: new Promise((resolve) => { release = resolve; }) };
    this.held.add(entry);
    const free = () => { this.held.delete(entry); release(); };
    return Promise.all(waits).then(() => free);
  }
}

/** The locks of each store's files, shared by every tool on it: target -> prefix -> PathLocks (backingOf). */
const storeLocks = new WeakMap();

/** The PathLocks of the files `store` writes to (one per backing store and prefix, for every tool). */
function locksOf(store) {
  const { target, prefix } = backingOf(store);
  let byPrefix = storeLocks.get(target);
  if (!byPrefix) storeLocks.set(target, (byPrefix = new Map()));
  let locks = byPrefix.get(prefix);
  if (!locks) byPrefix.set(prefix, (locks = new PathLocks()));
  return locks;
}

/** @type {{wasm: Wasm, scratch: Scratch} | null} */
let runtime = null;
let pending = null;

/**
 * Instantiates the memory-tool module once (later calls return the same promise);
 * `resolveSource` turns the caller's argument (undefined: the bundled .wasm) into a
 * Module, bytes or a Response. A failure leaves it unloaded so a later call can retry.
 * @param {unknown} source
 * @param {(source: unknown) => Promise<unknown>} resolveSource
 * @returns {Promise<void>}
 */
export function initMemoryWith(source, resolveSource) {
  if (runtime) return Promise.resolve();
  if (!pending) {
    pending = (async () => {
      const wasm = new Wasm(await instantiate(await resolveSource(source), 'initMemory'));
      runtime = { wasm, scratch: new Scratch(wasm) };
    })().catch((e) => {
      pending = null;
      throw e instanceof MidfoldError ? e
        : new MidfoldError('init-failed', `midfold could not load its memory-tool module: ${e && e.message}`, { cause: e });
    });
  }
  return pending;
}

/** One synchronous step in C: the request is {input, files, lists, sizes}. */
function runStep(request, limits) {
  const { wasm: w, scratch } = /** @type {{wasm: Wasm, scratch: Scratch}} */ (runtime);
  const len = encodeValue(scratch, request);
  return w.result(
    (outPtr, outLen) => w.x.mfw_memory_step(scratch.ptr, len, limits.maxFileBytes, limits.maxFiles, limits.maxViewBytes,
      outPtr, outLen, w.err),
    (p, n) => JSON.parse(w.text(p, n)));
}

function textOrNull(value, path) {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new Error(`get(${path}) gave ${typeof value}, not a string or null`);
  return value;
}

async function fetchNeeds(store, step, data) {
  await Promise.all([
    ...step.get.map(async (path) => { data.files[path] = textOrNull(await store.get(path), path); }),
    ...step.list.map(async (prefix) => {
      const entries = await store.list(prefix);
      if (!Array.isArray(entries)) throw new Error(`list(${prefix}) gave no array`);
      const paths = [];
      for (const e of entries) {
        if (typeof e === 'string') paths.push(e);
        else if (e && typeof e.path === 'string') {
          paths.push(e.path);
          if (Number.isSafeInteger(e.size) && e.size >= 0) data.sizes[e.path] = e.size;
        }
      }
      data.lists[prefix] = paths;
    }),
    ...step.size.map(async (path) => {
      const text = textOrNull(await store.get(path), path);
      data.sizes[path] = text === null ? 0 : utf8Length(text);
    }),
  ]);
}

async function moveFile(store, from, to) {
  if (typeof store.rename === 'function') return store.rename(from, to);
  const text = await store.get(from);
  if (typeof text !== 'string') throw new Error(`${from} was gone before it could be moved`);
  await store.put(to, text);
  await store.delete(from);
}

const failure = (content) => ({ content, isError: true });
const reason = (e) => (e && typeof e.message === 'string' ? e.message : String(e));

/** What createMemoryTool takes. */
const MEMORY_OPTIONS = ['store', 'maxFileBytes', 'maxFiles', 'maxViewBytes'];

/**
 * The memory tool over `store` (in memory by default).
 * - `definition`: the Anthropic tool entry, `{type: 'memory_20250818', name: 'memory'}`.
 * - `functionDefinition`: the same commands as an OpenAI-style function tool.
 * - `execute(input)`: runs one command (the tool_use input, or its JSON text) and
 *   resolves to `{content, isError}`.
 * - `toolResult(block)`: executes an Anthropic tool_use block and resolves to the
 *   tool_result block that answers it.
 * `load()` makes the memory-tool module ready (the host entry's initMemory); the first
 * command awaits it, and a failure to load rejects that command with its MidfoldError.
 * @param {{store?: object, maxFileBytes?: number, maxFiles?: number, maxViewBytes?: number}} options
 * @param {() => Promise<void>} load
 */
export function createMemoryToolWith(options = {}, load) {
  if (options === null || typeof options !== 'object')
    throw new MidfoldError('invalid-option', 'createMemoryTool(options): options must be an object');
  optionsObject(options, 'createMemoryTool', MEMORY_OPTIONS);
  const store = checkStore(options.store);
  const limits = {
    maxFileBytes: wholeNumber(options.maxFileBytes, 'maxFileBytes', 1 << 20, 1, 0x7fffffff),
    maxFiles: wholeNumber(options.maxFiles, 'maxFiles', 1000, 1, 0x7fffffff),
    maxViewBytes: wholeNumber(options.maxViewBytes, 'maxViewBytes', 32768, 256, 0x7fffffff),
  };
  // Shared with every other tool on the same store: two tools (a chat route and a background
  // agent, or one built per request) on one store would otherwise both read a file, and the
  // second write would drop the first one's change.
  const locks = locksOf(store);

  async function execute(input) {
    if (!runtime) await load(); // a MidfoldError('init-failed') is the host's to see
    let value = input;
    if (typeof input === 'string') {
      try { value = JSON.parse(input); } catch { return failure('Error: The tool input is not valid JSON.'); }
    }
    const data = { input: value, files: Object.create(null), lists: Object.create(null), sizes: Object.create(null) };
    let step;
    try {
      step = runStep(data, limits);
    } catch (e) {
      return failure(`Error: The tool input cannot be read: ${reason(e)}`);
    }
    if (step.done && !step.ops.length) return { content: step.content, isError: step.isError };
    const release = await locks.acquire(step.locks);
    try {
      for (let round = 0; !step.done; round++) {
        if (round === MAX_ROUNDS) return failure('Error: The memory command did not finish.');
        try {
          await fetchNeeds(store, step, data);
        } catch (e) {
          return failure(`Error: The memory store failed: ${reason(e)}`);
        }
        step = runStep(data, limits);
      }
      let applied = 0;
      try {
        for (const op of step.ops) {
          if (op.op === 'put') await store.put(op.path, op.text);
          else if (op.op === 'delete') await store.delete(op.path);
          else await moveFile(store, op.path, op.to);
          applied++;
        }
      } catch (e) {
        return failure(applied
          ? `Error: The memory store failed after ${applied} of ${step.ops.length} changes: ${reason(e)}`
          : `Error: The memory store failed: ${reason(e)}`);
      }
      return { content: step.content, isError: step.isError };
    } catch (e) {
      return failure(`Error: The memory command failed: ${reason(e)}`);
    } finally {
      release();
    }
  }

  async function toolResult(block) {
    const { content, isError } = await execute(block && block.input);
    const result = { type: 'tool_result', tool_use_id: block && block.id, content };
    if (isError) result.is_error = true;
    return result;
  }

  return {
    definition: { type: 'memory_20250818', name: 'memory' },
    functionDefinition: functionDefinition(),
    store,
    limits: { ...limits },
    execute,
    toolResult,
  };
}

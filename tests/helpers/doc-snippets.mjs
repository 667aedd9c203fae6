// The runnable snippets of the documentation: each ```js block right after a `<!-- run: NAME -->` line in
// README.md or docs/*.md. Tests take a snippet by its name, wherever the documentation keeps it, and run it
// as written; a name used twice is an error, so one name is one snippet.
import { readFileSync, readdirSync } from 'node:fs';

const ROOT = new URL('../../', import.meta.url);

/** The documentation files, relative to the repository: README.md, then docs/*.md. */
export function docFiles() {
  return ['README.md', ...readdirSync(new URL('docs/', ROOT)).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
}

/** Every ```js block of a Markdown text, with the run name marked before it, if any. */
export function jsBlocks(text) {
  return [...text.matchAll(/(?:<!-- run: ([\w-]+) -->\n)?```js\n([\s\S]*?)\n```/g)].map((m) => ({ name: m[1], code: m[2] }));
}

/** { NAME: {code, file} } for every marked snippet of the documentation. */
export function docSnippets() {
  const found = {};
  for (const file of docFiles()) {
    for (const { name, code } of jsBlocks(readFileSync(new URL(file, ROOT), 'utf8'))) {
      if (!name) continue;
      if (found[name]) throw new Error(`the snippet "${name}" is marked in ${found[name].file} and in ${file}`);
      found[name] = { code, file };
    }
  }
  return found;
}

/** The code of the snippet marked NAME. */
export function docSnippet(name) {
  const snippet = docSnippets()[name];
  if (!snippet) throw new Error(`no snippet is marked <!-- run: ${name} --> in README.md or docs/*.md`);
  return snippet.code;
}

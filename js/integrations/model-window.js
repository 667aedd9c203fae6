/**
 * model-window.js — `threshold: {fraction}` in the integrations: the fraction is of the
 * model's context window, found from the id of the model each call goes to
 * (js/pricing/windows.js), unless the host gave `contextWindow`.
 */
import { thresholdFraction } from '../compaction/compactor.js';
import { contextWindowOf } from '../pricing/windows.js';

/**
 * A model's id: an id string itself (ai resolves it through the gateway), an AI SDK model's
 * `modelId`, an Agents SDK model's `model` (or the `_model` its OpenAI models keep); else ''.
 * @param {unknown} model
 */
export function modelIdOf(model) {
  if (typeof model === 'string') return model;
  if (!model || typeof model !== 'object') return '';
  for (const key of ['modelId', 'model', '_model']) {
    const id = /** @type {any} */ (model)[key];
    if (typeof id === 'string' && id) return id;
  }
  return '';
}

/**
 * Null unless the options say `threshold: {fraction}` without `contextWindow`; then what the
 * integration needs to build a Compactor per window: `variant(model)`, a key naming the window
 * ('window:200000', or 'window:?' when the table does not know the model), and
 * `optionsFor(model)`, the Compactor options for it — with the window, or, for a model the
 * table does not know, without the threshold (the default one applies; `onWarn` hears it once
 * per model id). `check` are options that build a Compactor now, so a bad option fails when the
 * integration is made (with a stand-in window). Keeps the set of ids it warned about.
 * @param {Record<string, any>} options the Compactor's options as the host gave them
 */
export function fractionWindows(options) {
  const fraction = thresholdFraction(options.threshold);
  if (fraction === undefined || options.contextWindow !== undefined) return null;
  const warned = new Set();
  const { threshold, ...rest } = options;
  return {
    check: { ...options, contextWindow: 200000 },
    variant: (model) => `window:${contextWindowOf(modelIdOf(model)) ?? '?'}`,
    optionsFor(model) {
      const id = modelIdOf(model);
      const window = contextWindowOf(id);
      if (window !== undefined) return { ...options, contextWindow: window };
      if (!warned.has(id) && typeof options.onWarn === 'function') {
        warned.add(id);
        try {
          options.onWarn(`midfold: the context window of ${id ? JSON.stringify(id) : 'this model'} is unknown, so threshold {fraction: ${fraction}} cannot apply; the default threshold does (pass contextWindow)`);
        } catch { /* a failing warning hook must not fail the call */ }
      }
      void threshold;
      return rest;
    },
  };
}

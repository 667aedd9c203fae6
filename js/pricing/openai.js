// Prices and caching rules of openai, as data; the sources and the day they were read are in the object.
export default {
  "provider": "openai",
  "caching": "prefix",
  "profile": "o200k",
  "defaultModel": "gpt-5.4",
  "currency": "USD per million tokens",
  "models": {
    "gpt-5.5": { "input": 5, "cachedInput": 0.5, "output": 30, "note": "standard tier, prompts under 270k tokens" },
    "gpt-5.4": { "input": 2.5, "cachedInput": 0.25, "output": 15, "note": "standard tier, prompts under 270k tokens" },
    "gpt-5.4-mini": { "input": 0.75, "cachedInput": 0.075, "output": 4.5 },
    "gpt-5.4-nano": { "input": 0.2, "cachedInput": 0.02, "output": 1.25 },
    "gpt-5": { "input": 1.25, "cachedInput": 0.125, "output": 10, "note": "no longer on the pricing page by 2026-06; its last listed price" },
    "gpt-5-mini": { "input": 0.25, "cachedInput": 0.025, "output": 2, "note": "no longer on the pricing page by 2026-06; its last listed price" },
    "gpt-4.1": { "input": 2, "cachedInput": 0.5, "output": 8 }
  },
  "minimumPrefix": 1024,
  "step": 128,
  "ttlSeconds": { "in_memory": 300, "24h": 86400 },
  "defaultTtl": "in_memory",
  "rules": [
    "Caching is automatic for prompts of 1,024 tokens or more; a hit covers the longest exact prefix seen in a recent request, counted in steps of 128 tokens (1,024, 1,152, 1,280, ...).",
    "There is no charge for writing; cached input tokens are billed at the model's cached-input price.",
    "In-memory retention: cleared after 5-10 minutes of inactivity, always within an hour (the simulator keeps an entry 5 minutes after its last use); extended retention ('24h') keeps prefixes up to 24 hours."
  ],
  "sources": [
    { "url": "https://developers.openai.com/api/docs/guides/prompt-caching", "read": "2026-12-01", "for": "automatic prefix caching, 1,024-token minimum, 128-token increments, in-memory and 24h retention" },
    { "url": "https://developers.openai.com/api/docs/pricing", "read": "2026-12-01", "for": "input, cached input and output prices per model; the page itself was not in the stored copies searched, so the figures are as quoted from it by three independent readings that agree to the cent (TokenMix, 2026-06-04, and Morph, 2026-06: gpt-5.5 $5 / $0.50 / $30, gpt-5.4 $2.50 / $0.25 / $15, gpt-5.4-mini $0.75 / $0.075 / $4.50, gpt-5.4-nano $0.20 / $0.02 / $1.25 for prompts under 270k tokens; both say GPT-5 is no longer listed), gpt-5 and gpt-5-mini as last listed (models.dev pull request #1864, 2026-05-26), and API Evangelist's reading of 2026-11-05 (cached input a tenth of input on the newest models, a quarter on GPT-4.1)" }
  ]
};

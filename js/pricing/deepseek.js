// Prices and caching rules of deepseek, as data; the sources and the day they were read are in the object.
export default {
  "provider": "deepseek",
  "caching": "units",
  "profile": "deepseek",
  "defaultModel": "deepseek-chat",
  "currency": "USD per million tokens",
  "models": {
    "deepseek-chat": { "cacheHit": 0.028, "cacheMiss": 0.28, "output": 0.42 },
    "deepseek-reasoner": { "cacheHit": 0.028, "cacheMiss": 0.28, "output": 0.42 }
  },
  "unitTokens": 64,
  "ttlSeconds": { "default": 3600 },
  "defaultTtl": "default",
  "rules": [
    "Caching on disk is on for every request. A request hits only a cache prefix unit it matches in full.",
    "Units are persisted at the end of each request's input and at the end of its output, and for a common prefix detected between two requests (usable from the next request on); long inputs also get units at fixed token intervals, whose size is not published (not modelled).",
    "Storage is in 64-token units: a hit is rounded down to a multiple of 64 tokens.",
    "Unused caches are cleared within hours to days; the simulator keeps a unit one hour after its last use."
  ],
  "sources": [
    { "url": "https://api-docs.deepseek.com/quick_start/pricing", "read": "2026-12-01", "for": "input price on a cache hit and a cache miss, output price (DeepSeek-V3.2, deepseek-chat and deepseek-reasoner)" },
    { "url": "https://api-docs.deepseek.com/guides/kv_cache", "read": "2026-12-01", "for": "cache prefix units at request boundaries and common prefixes, full-match rule, 64-token storage unit, lifetime" }
  ]
};

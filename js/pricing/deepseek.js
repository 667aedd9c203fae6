// Prices and caching rules of DeepSeek, as data; the sources and the day they were read are in the object.
export default {
  "provider": "deepseek",
  "caching": "units",
  "profile": "deepseek",
  "defaultModel": "deepseek-flash",
  "currency": "USD per million tokens",
  "models": {
    "deepseek-flash": { "cacheHit": 0.006, "cacheMiss": 0.3, "output": 1.2, "note": "DeepSeek-V4.1-Flash at peak hours (01:00-04:00 and 06:00-10:00 UTC, weekdays)" },
    "deepseek-flash-off-peak": { "cacheHit": 0.003, "cacheMiss": 0.15, "output": 0.6, "note": "DeepSeek-V4.1-Flash outside peak hours" },
    "deepseek-v4-pro": { "cacheHit": 0.044, "cacheMiss": 1.32, "output": 3.96, "note": "DeepSeek-V4-Pro at peak hours" },
    "deepseek-v4-pro-off-peak": { "cacheHit": 0.022, "cacheMiss": 0.66, "output": 1.98, "note": "DeepSeek-V4-Pro outside peak hours" },
    "deepseek-chat-v3.2": { "cacheHit": 0.028, "cacheMiss": 0.28, "output": 0.42, "note": "the former deepseek-chat (DeepSeek-V3.2), priced from 2025-12; now a deprecated alias" }
  },
  "unitTokens": 64,
  "ttlSeconds": { "default": 3600 },
  "defaultTtl": "default",
  "rules": [
    "Caching on disk is on for every request. A request hits only a cache prefix unit it matches in full.",
    "Units are persisted at the end of each request's input and at the end of its output, and for a common prefix detected between two requests (usable from the next request on); long inputs also get units at fixed token intervals, whose size is not published (not modelled).",
    "Storage is in 64-token units: a hit is rounded down to a multiple of 64.",
    "Unused caches are cleared within hours to days; the simulator keeps a unit one hour after its last use."
  ],
  "sources": [
    { "url": "https://api-docs.deepseek.com/quick_start/pricing", "read": "2026-12-01", "for": "the official price list, in the stored copy of the page fetched as ?check=20261115 (deepseek-flash = DeepSeek-V4.1-Flash-1017: hit $0.003 off-peak / $0.006 peak, miss $0.15 / $0.30, output $0.60 / $1.20; deepseek-v4-pro = DeepSeek-V4-Pro-0813: $0.022 / $0.044, $0.66 / $1.32, $1.98 / $3.96; off-peak is half the peak rate); peak hours 01:00-04:00 and 06:00-10:00 UTC from the page's note of the 2026-08-16 change, on weekdays as third-party readings add; V3.2 from Roo-Code's price table (updated 2025-12-09)" },
    { "url": "https://api-docs.deepseek.com/guides/kv_cache", "read": "2026-12-01", "for": "cache prefix units at request boundaries and common prefixes, full-match rule, 64-token storage unit, lifetime" }
  ]
};

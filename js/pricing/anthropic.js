// Prices and caching rules of anthropic, as data; the sources and the day they were read are in the object.
export default {
  "provider": "anthropic",
  "caching": "breakpoints",
  "profile": "claude",
  "defaultModel": "claude-sonnet-4-5",
  "currency": "USD per million tokens",
  "models": {
    "claude-sonnet-4-5": { "input": 3, "cacheWrite5m": 3.75, "cacheWrite1h": 6, "cacheRead": 0.3, "output": 15, "minCacheable": 1024 },
    "claude-opus-4-5": { "input": 5, "cacheWrite5m": 6.25, "cacheWrite1h": 10, "cacheRead": 0.5, "output": 25, "minCacheable": 4096 },
    "claude-haiku-4-5": { "input": 1, "cacheWrite5m": 1.25, "cacheWrite1h": 2, "cacheRead": 0.1, "output": 5, "minCacheable": 4096 }
  },
  "ttlSeconds": { "5m": 300, "1h": 3600 },
  "defaultTtl": "5m",
  "lookbackBlocks": 20,
  "rules": [
    "A breakpoint (cache_control) caches the prefix up to and including its block: tools, then system, then messages.",
    "A request reads the longest cached prefix that ends at its breakpoint or at a block boundary up to 20 blocks before it; what follows up to the breakpoint is written (1.25x base for a 5-minute entry, 2x for a 1-hour entry); reads cost 0.1x.",
    "An entry lives 5 minutes (or 1 hour) and each read refreshes it at no cost.",
    "A prefix shorter than the model's minimum cacheable length is neither read nor written: it is billed at the base price."
  ],
  "sources": [
    { "url": "https://platform.claude.com/docs/en/docs/about-claude/pricing", "read": "2026-12-01", "for": "prices per model (base input, 5m and 1h cache writes, cache hits and refreshes, output)" },
    { "url": "https://platform.claude.com/docs/en/build-with-claude/prompt-caching", "read": "2026-12-01", "for": "multipliers 1.25x / 2x / 0.1x, 5-minute lifetime refreshed on use, 1-hour option, 20-block lookback, minimum cacheable length (1,024 Sonnet 4.5; 4,096 Opus 4.5 and Haiku 4.5)" }
  ]
};

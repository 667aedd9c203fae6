# workerd config for the example compacting proxy (worker.js), run from the repository
# after `make wasm`:
#
#   UPSTREAM_URL=http://127.0.0.1:8080/v1 CLIENT_TOKEN=change-me \
#     npx workerd serve web-demo/edge/config.capnp
#   curl -s http://127.0.0.1:8787/v1/chat/completions -H 'authorization: Bearer change-me' \
#        -H 'content-type: application/json' \
#        -d '{"model":"local","messages":[{"role":"user","content":"Hello"}]}' -D -
#
# The worker's settings come from environment variables: UPSTREAM_URL (required),
# CLIENT_TOKEN (required when UPSTREAM_KEY is set), UPSTREAM_KEY, MAX_BODY_BYTES,
# THRESHOLD, PRICING, PROFILE (default safe), SUMMARY_MODEL, STATE_MAX_CONVERSATIONS,
# STATE_MAX_BYTES, STATE_TTL_SECONDS (see worker.js).
#
# Compaction state lives in the SessionStore Durable Object (binding SESSIONS), one object
# per client (named by the SHA-256 of its token, or without CLIENT_TOKEN of its own
# Authorization header; a request without one keeps no state), one value per conversation,
# stored only after the upstream's 2xx answer, bounded per client and expiring by alarm. Here it is
# kept in memory for the life of the process; to keep it across restarts, add a service
#   (name = "session-disk", disk = (path = "/var/lib/midfold-edge", writable = true)),
# and use `durableObjectStorage = (localDisk = "session-disk")` below.
#
# Module names mirror the package, so `import ... from 'midfold'` resolves as it does
# with a bundler, through the package's `workerd` entry, which imports the .wasm itself.
#
# Outbound traffic is limited to the loopback address (an upstream on this machine, such
# as llama.cpp, vLLM or Ollama). For a hosted provider, give the "upstream" service
# `allow = ["public"]` and `tlsOptions = (trustBrowserCas = true)` instead.

using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "midfold-edge", worker = .edgeWorker),
    (name = "upstream", network = (allow = ["127.0.0.1/32"])),
  ],
  sockets = [
    (name = "http", address = "127.0.0.1:8787", http = (), service = "midfold-edge"),
  ],
);

const edgeWorker :Workerd.Worker = (
  compatibilityDate = "2025-09-01",
  modules = [
    (name = "worker.js", esModule = embed "worker.js"),
    (name = "auth.js", esModule = embed "auth.js"),
    (name = "body.js", esModule = embed "body.js"),
    (name = "pricing.js", esModule = embed "pricing.js"),
    (name = "relay.js", esModule = embed "relay.js"),
    (name = "session-store.js", esModule = embed "session-store.js"),
    (name = "midfold", esModule = "export * from 'midfold/js/hosts/workerd.js';"),
    (name = "midfold/js/hosts/workerd.js", esModule = embed "../../js/hosts/workerd.js"),
    (name = "midfold/js/hosts/public.js", esModule = embed "../../js/hosts/public.js"),
    (name = "midfold/js/core/api.js", esModule = embed "../../js/core/api.js"),
    (name = "midfold/js/core/tier-loader.js", esModule = embed "../../js/core/tier-loader.js"),
    (name = "midfold/js/core/errors.js", esModule = embed "../../js/core/errors.js"),
    (name = "midfold/js/core/limits.js", esModule = embed "../../js/core/limits.js"),
    (name = "midfold/js/core/depth.js", esModule = embed "../../js/core/depth.js"),
    (name = "midfold/js/core/wasm.js", esModule = embed "../../js/core/wasm.js"),
    (name = "midfold/js/core/tiers.js", esModule = embed "../../js/core/tiers.js"),
    (name = "midfold/js/core/encode.js", esModule = embed "../../js/core/encode.js"),
    (name = "midfold/js/core/snapshot.js", esModule = embed "../../js/core/snapshot.js"),
    (name = "midfold/js/sources/fetch.js", esModule = embed "../../js/sources/fetch.js"),
    (name = "midfold/js/core/apply.js", esModule = embed "../../js/core/apply.js"),
    (name = "midfold/js/core/options.js", esModule = embed "../../js/core/options.js"),
    (name = "midfold/js/core/langchain.js", esModule = embed "../../js/core/langchain.js"),
    (name = "midfold/js/core/deprecation.js", esModule = embed "../../js/core/deprecation.js"),
    (name = "midfold/js/compaction/compactor.js", esModule = embed "../../js/compaction/compactor.js"),
    (name = "midfold/js/compaction/summary-messages.js", esModule = embed "../../js/compaction/summary-messages.js"),
    (name = "midfold/js/compaction/config-updates.js", esModule = embed "../../js/compaction/config-updates.js"),
    (name = "midfold/js/simulate/simulate.js", esModule = embed "../../js/simulate/simulate.js"),
    (name = "midfold/js/simulate/chart.js", esModule = embed "../../js/simulate/chart.js"),
    (name = "midfold/js/simulate/clearing.js", esModule = embed "../../js/simulate/clearing.js"),
    (name = "midfold/js/simulate/turns.js", esModule = embed "../../js/simulate/turns.js"),
    (name = "midfold/js/simulate/recall.js", esModule = embed "../../js/simulate/recall.js"),
    (name = "midfold/js/simulate/server-compaction.js", esModule = embed "../../js/simulate/server-compaction.js"),
    (name = "midfold/js/logs/index.js", esModule = embed "../../js/logs/index.js"),
    (name = "midfold/js/logs/lines.js", esModule = embed "../../js/logs/lines.js"),
    (name = "midfold/js/logs/claude-code.js", esModule = embed "../../js/logs/claude-code.js"),
    (name = "midfold/js/logs/codex.js", esModule = embed "../../js/logs/codex.js"),
    (name = "midfold/js/pricing/index.js", esModule = embed "../../js/pricing/index.js"),
    (name = "midfold/js/pricing/hosts.js", esModule = embed "../../js/pricing/hosts.js"),
    (name = "midfold/js/pricing/windows.js", esModule = embed "../../js/pricing/windows.js"),
    (name = "midfold/js/pricing/anthropic.js", esModule = embed "../../js/pricing/anthropic.js"),
    (name = "midfold/js/pricing/openai.js", esModule = embed "../../js/pricing/openai.js"),
    (name = "midfold/js/pricing/deepseek.js", esModule = embed "../../js/pricing/deepseek.js"),
    (name = "midfold/js/compaction/summarizers.js", esModule = embed "../../js/compaction/summarizers.js"),
    (name = "midfold/js/compaction/http-transport.js", esModule = embed "../../js/compaction/http-transport.js"),
    (name = "midfold/js/compaction/server-context.js", esModule = embed "../../js/compaction/server-context.js"),
    (name = "midfold/js/core/thinking.js", esModule = embed "../../js/core/thinking.js"),
    (name = "midfold/js/core/knobs.js", esModule = embed "../../js/core/knobs.js"),
    (name = "midfold/js/core/micro-rules.js", esModule = embed "../../js/core/micro-rules.js"),
    (name = "midfold/js/core/prune.js", esModule = embed "../../js/core/prune.js"),
    (name = "midfold/js/core/signed-parts.js", esModule = embed "../../js/core/signed-parts.js"),
    (name = "midfold/js/core/thinking-keep.js", esModule = embed "../../js/core/thinking-keep.js"),
    (name = "midfold/js/core/estimate-cache.js", esModule = embed "../../js/core/estimate-cache.js"),
    (name = "midfold/js/memory/workerd.js", esModule = embed "../../js/memory/workerd.js"),
    (name = "midfold/js/memory/tool.js", esModule = embed "../../js/memory/tool.js"),
    (name = "midfold/js/memory/stores.js", esModule = embed "../../js/memory/stores.js"),
    (name = "midfold/js/state/index.js", esModule = embed "../../js/state/index.js"),
    (name = "midfold/js/state/session-state.js", esModule = embed "../../js/state/session-state.js"),
    (name = "midfold/js/state/state-codec.js", esModule = embed "../../js/state/state-codec.js"),
    (name = "midfold/js/state/compact-history.js", esModule = embed "../../js/state/compact-history.js"),
    (name = "midfold/js/state/hash.js", esModule = embed "../../js/state/hash.js"),
    (name = "midfold/js/state/sha256.js", esModule = embed "../../js/state/sha256.js"),
    (name = "midfold/js/state/stores.js", esModule = embed "../../js/state/stores.js"),
    (name = "midfold/js/recall/options.js", esModule = embed "../../js/recall/options.js"),
    (name = "midfold/js/recall/archive.js", esModule = embed "../../js/recall/archive.js"),
    (name = "midfold/js/recall/micro.js", esModule = embed "../../js/recall/micro.js"),
    (name = "midfold/js/recall/tool.js", esModule = embed "../../js/recall/tool.js"),
    (name = "midfold/js/recall/fence.js", esModule = embed "../../js/recall/fence.js"),
    (name = "midfold/js/recall/pages.js", esModule = embed "../../js/recall/pages.js"),
    (name = "midfold/js/recall/content-text.js", esModule = embed "../../js/recall/content-text.js"),
    (name = "midfold/js/recall/fold.js", esModule = embed "../../js/recall/fold.js"),
    (name = "midfold/js/recall/recall-tool.js", esModule = embed "../../js/recall/recall-tool.js"),
    (name = "midfold/js/recall/definitions.js", esModule = embed "../../js/recall/definitions.js"),
    (name = "midfold/js/recall/search.js", esModule = embed "../../js/recall/search.js"),
    (name = "midfold/wasm/midfold.wasm", wasm = embed "../../wasm/midfold.wasm"),
    (name = "midfold/wasm/midfold-memory.wasm", wasm = embed "../../wasm/midfold-memory.wasm"),
  ],
  bindings = [
    (name = "UPSTREAM_URL", fromEnvironment = "UPSTREAM_URL"),
    (name = "UPSTREAM_KEY", fromEnvironment = "UPSTREAM_KEY"),
    (name = "CLIENT_TOKEN", fromEnvironment = "CLIENT_TOKEN"),
    (name = "MAX_BODY_BYTES", fromEnvironment = "MAX_BODY_BYTES"),
    (name = "THRESHOLD", fromEnvironment = "THRESHOLD"),
    (name = "PRICING", fromEnvironment = "PRICING"),
    (name = "PROFILE", fromEnvironment = "PROFILE"),
    (name = "SUMMARY_MODEL", fromEnvironment = "SUMMARY_MODEL"),
    (name = "STATE_MAX_CONVERSATIONS", fromEnvironment = "STATE_MAX_CONVERSATIONS"),
    (name = "STATE_MAX_BYTES", fromEnvironment = "STATE_MAX_BYTES"),
    (name = "STATE_TTL_SECONDS", fromEnvironment = "STATE_TTL_SECONDS"),
    (name = "SESSIONS", durableObjectNamespace = "SessionStore"),
  ],
  durableObjectNamespaces = [
    (className = "SessionStore", uniqueKey = "midfold-edge-session-store"),
  ],
  durableObjectStorage = (inMemory = void),
  globalOutbound = "upstream",
);

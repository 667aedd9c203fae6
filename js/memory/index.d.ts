// The types of midfold/memory: the memory tool in an entry of its own, with its own wasm
// module (midfold-memory.wasm), loaded at the first command or by initMemory(). The tool's
// types are index.d.ts's (the main entry re-exports the tool).
export {
  MidfoldError, createMemoryTool, memoryStore, localStorageStore, kvStore,
  MemoryStore, MemoryCommand, MemoryResult, MemoryToolOptions, MemoryTool,
} from '../index.js';

/** Loads the memory tool's wasm module ahead of the first command, which otherwise loads it
 * (later calls return at once). By default the module bundled with the package: read from
 * disk in Node, fetched beside the package in a browser, imported as a WebAssembly.Module
 * in workerd. A Module, bytes, a Response or a URL may be given instead (workerd takes a
 * WebAssembly.Module only, e.g. `import wasm from 'midfold/midfold-memory.wasm'`).
 * Rejects with MidfoldError 'init-failed' when the module cannot load. */
export declare function initMemory(source?: WebAssembly.Module | BufferSource | Response | URL | string): Promise<void>;

/**
 * langchain.js — LangChain JS messages (@langchain/core 1.x) as the core reads them, and back.
 *
 * A LangChain conversation comes in three shapes: message instances (HumanMessage, AIMessage,
 * ToolMessage, SystemMessage, ChatMessage and their chunks), what their toJSON() gives (the
 * constructor form {lc: 1, type: 'constructor', id: [..., 'AIMessage'], kwargs}), and plain
 * objects (the dict form {type: 'human', content} that LangChain coerces, or a stored message
 * {type, data}). Instances never cross into wasm as they are: each message gets a plain view
 * {type, role, content, id?, name?, tool_calls?, tool_call_id?, status?} that src/adapt_langchain.c
 * reads, index for index, so an edit plan's indices are the caller's.
 *
 * A view shares its content with its message (nothing is copied); midfold's edits replace a
 * view's `content` and never write into it (a view is frozen: edits go to copies), so a view
 * whose content is no longer its message's is a changed message. Each view carries its message under an enumerable symbol, which a
 * spread copy keeps and neither the encoder nor JSON sees. Going back, LangChain treats messages
 * as immutable: an unchanged view gives the caller's own message, a changed one a new message of
 * the same class (same id and fields, the new content), a new one (the summary) a message of the
 * list's own kind. @langchain/core is never imported: classes are taken from the messages given.
 */

const SOURCE = Symbol('midfold.langchain.source');
const TYPES = ['human', 'ai', 'system', 'tool', 'generic', 'function'];
const ROLES = { human: 'user', ai: 'assistant', system: 'system', tool: 'tool', function: 'tool' };
/** The class names in the constructor form, by message type. */
const CLASS_TYPES = {
  HumanMessage: 'human', HumanMessageChunk: 'human', AIMessage: 'ai', AIMessageChunk: 'ai',
  SystemMessage: 'system', SystemMessageChunk: 'system', ToolMessage: 'tool', ToolMessageChunk: 'tool',
  ChatMessage: 'generic', ChatMessageChunk: 'generic', FunctionMessage: 'function', FunctionMessageChunk: 'function',
};
const CLASS_NAMES = { human: 'HumanMessage', ai: 'AIMessage', system: 'SystemMessage', tool: 'ToolMessage' };
/** The fields a view takes from a message, beside type, role and content. */
const FIELDS = ['id', 'name', 'tool_calls', 'tool_call_id', 'status'];

const isObject = (v) => v !== null && typeof v === 'object';

/** A message instance (BaseMessage and its subclasses, of any copy of @langchain/core). */
export function isMessageInstance(v) {
  return isObject(v) && typeof v._getType === 'function' && typeof v.type === 'string' && Array.isArray(v.lc_namespace);
}

/** The constructor form: {lc: 1, type: 'constructor', id: ['langchain_core', 'messages', 'AIMessage'], kwargs}. */
function isConstructorForm(v) {
  return isObject(v) && v.lc === 1 && v.type === 'constructor' && Array.isArray(v.id) &&
    Object.prototype.hasOwnProperty.call(CLASS_TYPES, v.id[v.id.length - 1]) && isObject(v.kwargs);
}

/** A stored message (mapChatMessagesToStoredMessages): {type, data: {content, ...}}. */
function isStoredForm(v) {
  return isObject(v) && TYPES.includes(v.type) && isObject(v.data) && !('content' in v) && 'content' in v.data;
}

/** The dict form: {type: 'human' | 'ai' | ..., content} without a role of its own. */
function isDictForm(v) {
  return isObject(v) && TYPES.includes(v.type) && 'content' in v && !('role' in v && v.type !== 'generic');
}

/** Which LangChain shape `v` is, or null: 'instance', 'constructor', 'stored', 'dict'. */
function shapeOf(v) {
  if (isMessageInstance(v)) return 'instance';
  if (isConstructorForm(v)) return 'constructor';
  if (isStoredForm(v)) return 'stored';
  if (isDictForm(v)) return 'dict';
  return null;
}

/**
 * False for what cannot be a LangChain message in any shape, by at most four property reads: every
 * call scans the whole list, and a provider's own message ({role, content}, a Responses item) is
 * told apart at once; true leaves the question to shapeOf.
 */
function mayBeLangChain(v) {
  if (v === null || typeof v !== 'object') return false;
  if (typeof v._getType === 'function' || v.lc === 1) return true;
  const t = v.type;
  if (t === undefined) return false;
  const lc = t === 'human' || t === 'ai' || t === 'tool' || t === 'system' || t === 'generic' || t === 'function';
  return lc && (typeof v.role !== 'string' || t === 'generic');
}

/** Lists viewList made: they hold views already (midfold's own calls pass them on). */
const viewLists = /* @__PURE__ */ new WeakSet();

/**
 * True when some item of the list is a LangChain message in one of its shapes. A value that throws
 * when read (a revoked Proxy, a getter that throws) is none: the encoder then names what threw.
 */
export function isLangChainList(list) {
  try {
    if (!Array.isArray(list) || viewLists.has(list)) return false;
    for (let i = 0; i < list.length; i++) if (mayBeLangChain(list[i]) && shapeOf(list[i]) !== null) return true;
  } catch {
    /* read as it is: the encoder reports the throw with its path */
  }
  return false;
}

/**
 * Whether the list is read through views: any LangChain message in it (a dict-form one gets a
 * view too, for the role that midfold's JS side reads and so that edits never write into it).
 */
const needsView = isLangChainList;

/** The fields of a message in any shape (an instance's own properties, kwargs, data, the dict itself) and its type. */
function fieldsOf(v, shape) {
  if (shape === 'constructor') return [CLASS_TYPES[v.id[v.id.length - 1]], v.kwargs];
  if (shape === 'stored') return [v.type, v.data];
  return [v.type, v];
}

const cached = /* @__PURE__ */ new WeakMap(); // instance -> its view, while the view still shares its content

/** The plain view of one message, or `v` itself when it is not a LangChain message. */
export function viewOf(v) {
  const shape = shapeOf(v);
  if (shape === null) return v;
  if (shape === 'instance') {
    const hit = cached.get(v);
    if (hit && hit.content === v.content && hit.tool_calls === v.tool_calls) return hit;
  }
  const [type, fields] = fieldsOf(v, shape);
  const role = type === 'generic' ? fields.role : ROLES[type];
  const view = { type, role, content: fields.content };
  for (const k of FIELDS) if (fields[k] !== undefined && fields[k] !== null) view[k] = fields[k];
  view[SOURCE] = { message: v, shape, content: fields.content, tool_calls: view.tool_calls };
  // Frozen: every midfold edit then goes to a copy (apply.js and thinking.js copy what they cannot
  // write), so a view shared by calls (the cache below) never changes.
  Object.freeze(view);
  if (shape === 'instance') cached.set(v, view);
  return view;
}

/**
 * The views of a list (a new array), or the list itself when nothing in it needs one (plain
 * dict-form lists are read as they are). Unknown items pass through: the core reports them.
 * @param {unknown[]} list
 */
export function viewList(list) {
  if (!needsView(list)) return list;
  const out = new Array(list.length);
  try {
    for (let i = 0; i < list.length; i++) out[i] = viewOf(list[i]);
  } catch {
    return list; // (a message that throws when read: the encoder reports it, with its path)
  }
  viewLists.add(out);
  return out;
}

/**
 * What the core should read for `value`: a LangChain list as views, a single message as its
 * view, a request body {messages} with its messages as views; anything else as it is.
 * @param {unknown} value
 */
export function plainInput(value) {
  try {
    return plainInputOf(value);
  } catch {
    return value; // (a value that throws when read: the encoder reports it, with its path)
  }
}

function plainInputOf(value) {
  if (Array.isArray(value)) return viewList(value);
  if (!isObject(value)) return value;
  if (Array.isArray(value.messages) && needsView(value.messages)) return { ...value, messages: viewList(value.messages) };
  const shape = shapeOf(value);
  return shape === 'instance' || shape === 'constructor' || shape === 'stored' ? viewOf(value) : value;
}

/** The list's prevailing shape: the first LangChain item's ('dict' for none). */
function listShape(list) {
  for (const m of list) {
    const s = shapeOf(m);
    if (s && s !== 'dict') return s;
  }
  return 'dict';
}

/**
 * A copy of message `m` (shape `shape`) with `content`, and with `toolCalls` as its tool_calls
 * when given (micro-compaction cleared a call's input): same class, id and other fields.
 */
function withContent(m, shape, content, toolCalls) {
  const calls = toolCalls === undefined ? {} : { tool_calls: toolCalls };
  if (shape === 'constructor') return { ...m, kwargs: { ...m.kwargs, content, ...calls } };
  if (shape === 'stored') return { ...m, data: { ...m.data, content, ...calls } };
  if (shape === 'dict') return { ...m, content, ...calls };
  const fields = {};
  for (const k of Object.keys(m)) {
    if (k === 'type' || k === 'content' || k.startsWith('lc_')) continue;
    fields[k] = m[k];
  }
  fields.content = content;
  if (toolCalls !== undefined) fields.tool_calls = toolCalls;
  const Ctor = /** @type {any} */ (m.constructor);
  return new Ctor(fields);
}

/**
 * A new message (the summary, the acknowledgement) of `type` with `content`, in the list's own
 * kind: an instance of the class the list's messages of that type have (any instance of the
 * type in `originals`), the constructor form, a stored message, or the dict form (which every
 * LangChain entry point coerces: an instance list without a message of that type gets one).
 */
function newMessage(type, content, originals, shape) {
  if (shape === 'instance') {
    const same = originals.find((m) => isMessageInstance(m) && m.type === type && !/Chunk$/.test(m.constructor.name));
    if (same) { const Ctor = /** @type {any} */ (same.constructor); return new Ctor({ content }); }
    return { type, content };
  }
  if (shape === 'constructor')
    return { lc: 1, type: 'constructor', id: ['langchain_core', 'messages', CLASS_NAMES[type]], kwargs: { content, additional_kwargs: {}, response_metadata: {} } };
  if (shape === 'stored') return { type, data: { content, additional_kwargs: {}, response_metadata: {} } };
  return { type, content };
}

/**
 * The caller's messages for a list of views after midfold edited or rebuilt it: each unchanged
 * view's own message, a changed one's copy with the new content, each new message (a view with
 * no message behind it: {type, role, content}) in the list's kind. Returns a new array.
 * @param {unknown[]} views the edited list of views
 * @param {unknown[]} originals the caller's messages the views were made from
 */
export function messagesFromViews(views, originals) {
  const shape = listShape(originals);
  return views.map((v) => {
    if (!isObject(v)) return v;
    const src = v[SOURCE];
    if (src) {
      if (v.content === src.content && v.tool_calls === src.tool_calls) return src.message;
      return withContent(src.message, src.shape, v.content, v.tool_calls === src.tool_calls ? undefined : v.tool_calls);
    }
    if (TYPES.includes(v.type) && 'content' in v) return newMessage(v.type, v.content, originals, shape);
    return v;
  });
}

/** The summary pair's messages in the dict form the views use ({type, role, content}). */
export function langchainMessage(role, content) {
  return role === 'user' ? { type: 'human', role: 'user', content } : { type: 'ai', role: 'assistant', content };
}

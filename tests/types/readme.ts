// docs/types.md's snippet, as written there (plus the two names it assumes).
import type Anthropic from '@anthropic-ai/sdk';
import { Compactor, digestSummarizer, microCompact } from 'midfold';

declare function loadConversation(): Promise<Anthropic.MessageParam[]>;
const archive: Anthropic.MessageParam[] = [];

const messages: Anthropic.MessageParam[] = await loadConversation();
microCompact(messages, { keepRecent: 3 });
const compactor = new Compactor<Anthropic.MessageParam>({
  summarize: digestSummarizer(),
  onArchive: (removed) => archive.push(...removed),   // removed: Anthropic.MessageParam[]
});
await compactor.compact(messages);

import { analyse } from './retrieval/text';
import { FuzzyIndex } from './retrieval/fuzzy';
import { TopicIndex } from './retrieval/topic-index';
import { syntheticKnowledgeBase } from './retrieval/synthetic';
const kb = syntheticKnowledgeBase(5000, 10);
for (let r = 0; r < 3; r++) {
let t = performance.now();
const vocab = new Set<string>();
for (const x of kb.topics) { for (const s of [x.name, x.content, ...x.exampleQueries]) for (const a of analyse(s)) { vocab.add(a.surface); vocab.add(a.stem); } }
console.log('analyse', performance.now() - t);
t = performance.now(); FuzzyIndex.build(vocab); console.log('fuzzy', performance.now() - t, vocab.size);
t = performance.now(); TopicIndex.build(kb.topics); console.log('all', performance.now() - t);
}

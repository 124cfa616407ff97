import { analyse, tokenise, normalise } from './retrieval/text';
import { FuzzyIndex } from './retrieval/fuzzy';
import { Bm25Index } from './retrieval/bm25';
import { syntheticKnowledgeBase } from './retrieval/synthetic';
const kb = syntheticKnowledgeBase(5000, 10);
const texts = kb.topics.flatMap(x => [x.name, x.content, ...x.exampleQueries]);
let n=0; for (const s of texts) n += s.length; console.log('chars', n, 'texts', texts.length);
for (let r = 0; r < 3; r++) {
let t = performance.now(); for (const s of texts) normalise(s); console.log('normalise', performance.now() - t);
t = performance.now(); let k=0; for (const s of texts) k+=tokenise(s).length; console.log('tokenise', performance.now() - t, k);
const cache = new Map<string,string>();
t = performance.now(); const docs = kb.topics.map(x => [analyse(x.name, cache).map(a=>a.stem), x.exampleQueries.flatMap(q=>analyse(q, cache)).map(a=>a.stem), analyse(x.content, cache).map(a=>a.stem)]); console.log('analyse cached', performance.now() - t);
t = performance.now(); Bm25Index.build(docs, {k1:1.2, fields:[{weight:3,b:.75},{weight:2,b:.75},{weight:1,b:.75}]}); console.log('bm25', performance.now() - t);
}

import { TopicIndex } from './retrieval/topic-index';
import { stem, tokenise } from './retrieval/text';
const words = 'refunds refunded refunding refund cancellation cancelation cancelling canceling cancelled cancel deliveries delivery delivered charges charging charge charged payment paying shipping addresses status settings agreement hours opening monthly remboursément remboursement'.split(' ');
console.log(words.map(w => `${w}→${stem(tokenise(w)[0])}`).join(' '));
const idx = TopicIndex.build([
  { id: 'r', name: 'Refunds', content: 'You can request a refund within 30 days of purchase. Refunds are paid back to the original payment method.', exampleQueries: ['how do I get my money back', 'can I get a refund', 'refund status'], isActive: true },
  { id: 'd', name: 'Delivery times', content: 'Standard delivery takes 3 to 5 working days. Express delivery arrives next day.', exampleQueries: ['when will my order arrive', 'how long does shipping take'], isActive: true },
  { id: 'h', name: 'Opening hours', content: 'Our stores are open 9am to 6pm Monday to Saturday, closed on Sundays.', exampleQueries: ['when are you open', 'what time do you close'], isActive: true },
  { id: 'c', name: 'Cancellation', content: 'Orders can be cancelled before they ship. After shipping, return the parcel instead.', exampleQueries: ['cancel my order'], isActive: true },
]);
for (const q of ['how do I get a refund', "what's the weather on Mars", 'refnud', 'cancelaton', 'cancelation', 'I want to cancel', 'when do you open on sunday', 'deliveries', 'mars', 'refund for my kettle', 'how long until my parcel arrives'])
  console.log(q, JSON.stringify(idx.search(q, 3).map(h => [h.topicId, +h.score.toFixed(2), +h.confidence.toFixed(2)])));

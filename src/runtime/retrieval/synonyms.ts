/**
 * Words customers use for the same thing, so a question in the customer's words meets a topic
 * written in the business's ("shut" → "close", "kids" → "children", "nicked" → "stolen"). General
 * customer-service English, not any one knowledge base's vocabulary: a group lists words a support
 * agent would read as the same request. A query word reaches the indexed words of its groups at a
 * discount (topic-index.ts), never the other way round, so the index itself is unchanged.
 */
import { stem } from '../../platform/text/text';

const GROUPS: readonly string[] = [
  // time and availability
  'open opening opens',
  'close closes closing shut shuts closed',
  'hours times timetable schedule',
  // where
  'address location located directions situated',
  'parking park',
  // people
  'child children kid kids toddler youngster',
  'baby babies infant infants newborn toddler',
  'teenager teen teens adolescent',
  'staff employee employees waiter waiters waitress server team',
  'technician engineer engineers',
  'trainer trainers coach instructor pt',
  'friend guest visitor',
  // money
  'cost costs price prices pricing priced fee fees charge charges expensive cheap',
  'pay payment paid',
  'refund refunds reimburse reimbursement',
  'bill bills invoice invoices',
  'instalment instalments installment installments finance monthly',
  'tip tips tipping gratuity',
  'discount discounts offer deal reduction concession',
  'deposit downpayment',
  // doing things with a booking or a contract
  'book booking reserve reservation appointment appt slot',
  'cancel cancellation terminate quit',
  'change amend modify rearrange reschedule alter move swap rebook',
  'join register registration enrol enroll signup membership',
  'leave switch',
  'freeze pause suspend hold block',
  'upgrade faster',
  'buy purchase',
  'send transfer',
  'deliver delivery deliveroo',
  'collect collection pickup takeaway takeout',
  'fix repair',
  'contact call phone ring telephone',
  'help assist assistance support',
  'claim compensation compensate',
  'complain complaint',
  // trouble
  'lost lose missing misplaced',
  'stolen steal theft nicked',
  'broken broke break damaged damage',
  'fraud scam scammed scammer fraudulent suspicious unauthorised unauthorized',
  'delay delayed late',
  'slow sluggish buffering lag laggy',
  'fault faulty problem issue',
  'outage offline',
  // things
  'password passcode passwd',
  'login logon log signin',
  'internet broadband connection',
  'wifi wireless',
  'router hub modem',
  'signal coverage reception',
  'landline phone',
  'package plan plans tariff bundle packages',
  'luggage baggage bag bags suitcase suitcases backpack rucksack carryon',
  'cabin hand carryon',
  'disabled disability wheelchair mobility blind deaf impaired',
  'currency currencies euro euros dollar dollars',
  'equipment machine machines kit',
  'injury injured injuries',
  'booster extender mesh',
  'protected protection safe guarantee guaranteed',
  'date day',
  // general customer-service English
  'start begin starts begins',
  'stop end finish',
  'receive get arrive arrived arrives reach',
  'email mail',
  'post mail letter',
  'website site web',
  'app application',
  'problem trouble',
  'wrong incorrect mistake error typo',
  'fast quick quickly',
  'cheap affordable',
  'big large huge',
  'free complimentary',
  'allowed permitted allow permit welcome',
  'inside indoors',
  'outside outdoor outdoors terrace garden',
  'money funds',
  'account profile',
  'number digits',
  'person people',
  'family families',
  'wait waiting waited queue',
  'member membership subscription',
  'doctor gp',
  'customer client',
  'meal food lunch dinner',
  'drink drinks beverage',
  'photo picture',
  'work working works',
  'help advice',
  'contract agreement term',
  'notice warning',
  'minimum least',
  'maximum limit most',
  'weight heavy kg',
  'size dimensions big',
  'apply application',
  'update edit',
  'forgot forgotten forget',
  'find locate',
  'show display',
  'keep hold',
  'remove delete',
  'new replacement',
  'pushchair stroller buggy pram',
  'passport id identification licence license',
  'seat seats seating',
  'flight flights fly flying plane',
  'pet pets animal animals dog dogs cat cats',
  'voucher vouchers giftcard coupon',
  'allergy allergies allergic allergen allergens intolerance intolerant',
  'gluten coeliac celiac',
  'vegetarian veggie',
  'menu dishes dish food',
  'group party',
  'party celebration birthday event',
  'class classes session sessions',
  'locker lockers lock padlock',
  'shower showers',
  'pool swim swimming',
  'statement statements',
  'overdraft overdrawn',
  'mortgage remortgage',
  'savings save saver saving',
  'abroad overseas international foreign',
  'teeth tooth',
  'toothache pain ache aching hurt hurts sore',
  'swollen swelling',
  'emergency urgent urgently asap',
  'nervous anxious anxiety scared afraid frightened terrified phobia fear',
  'sedation sedate sedated asleep',
  'braces aligners orthodontic orthodontist orthodontics straighten crooked',
  'whitening whiten whiter bleach bleaching',
  'checkup check examination exam',
  'insurance insurer insured',
];

/** Stem → the stems it stands for (itself excluded), from every group holding it. */
export const SYNONYMS: ReadonlyMap<string, readonly string[]> = (() => {
  const out = new Map<string, Set<string>>();
  for (const group of GROUPS) {
    const stems = [...new Set(group.split(/\s+/).map(stem))];
    for (const s of stems) {
      let set = out.get(s);
      if (!set) out.set(s, (set = new Set()));
      for (const other of stems) if (other !== s) set.add(other);
    }
  }
  return new Map([...out].map(([s, set]) => [s, [...set]]));
})();

/**
 * Words that carry no topic in a customer's question ("I need it today", "can you tell me"): when
 * the knowledge base does not know them they do not count against a topic's confidence, and when it
 * does they count little. Not stopwords: a topic may still be found through them.
 */
export const FILLER: ReadonlySet<string> = new Set(
  (
    'need needs like know tell say said ask asking wondering wonder think thought go going gone come coming ' +
    'make take use using let lot bit sure well good great fine really much many way thing things ' +
    'something anything someone anyone somebody anybody possible able still ever even now today tonight ' +
    'tomorrow yesterday morning afternoon evening night sometime soon already again next ' +
    'one two three u ur pls plz thx cheers sorry mate guys else'
  )
    .split(/\s+/)
    .map(stem),
);

/** Demo content for `npm run seed`: a retail support agent's topics, as a customer would ask them. */
export interface DemoTopic {
  name: string;
  content: string;
  queries: string[];
  actions?: string;
}

export const DEMO_TOPICS: DemoTopic[] = [
  {
    name: 'Refunds',
    content: 'Refunds go back to the original payment method within 5 to 7 working days of us receiving the return.',
    queries: [
      'I want a refund',
      'how do I get my money back',
      'when will my refund arrive',
      'refund for a damaged item',
      'can I get a refund on my order',
    ],
    actions: 'log_metric name=HANDOFF_REASON value=refund',
  },
  {
    name: 'Order cancellation',
    content: 'You can cancel an order until it ships from the Orders page; after that, return it for a refund.',
    queries: [
      'cancel my order',
      'how do I cancel an order',
      'I need to cancel my purchase',
      'stop my order from shipping',
      'cancellation of my order',
    ],
  },
  {
    name: 'Delivery times',
    content:
      'Standard delivery takes 3 to 5 working days; express delivery arrives the next working day if ordered before 2pm.',
    queries: [
      'when will my order arrive',
      'how long does delivery take',
      'where is my parcel',
      'is express delivery available',
      'delivery is late',
    ],
  },
  {
    name: 'Track a parcel',
    content:
      'Your tracking link is in the dispatch email; enter the tracking number on the courier website for live updates.',
    queries: ['track my parcel', 'where is my package', 'tracking number not working', 'has my order shipped'],
  },
  {
    name: 'Returns',
    content:
      'Returns are free within 30 days: print the label from your account and drop the parcel at any post office.',
    queries: ['how do I return an item', 'return label', 'can I send this back', 'returns policy', 'exchange an item'],
  },
  {
    name: 'Password reset',
    content: 'Use Forgot password on the sign-in page; the reset link is valid for one hour.',
    queries: [
      'I forgot my password',
      'reset my password',
      'cannot log in',
      'locked out of my account',
      'password reset email not arriving',
    ],
  },
  {
    name: 'Change address',
    content: 'You can change the delivery address in Orders until the order is dispatched.',
    queries: [
      'change my delivery address',
      'update my address',
      'wrong address on my order',
      'send it to a different address',
    ],
  },
  {
    name: 'Payment methods',
    content: 'We accept cards, PayPal and Apple Pay; payment is taken when the order ships.',
    queries: [
      'what payment methods do you accept',
      'can I pay with paypal',
      'my card was declined',
      'payment failed',
      'was I charged twice',
    ],
  },
  {
    name: 'Opening hours',
    content: 'Our stores are open 9am to 8pm Monday to Saturday and 10am to 4pm on Sunday.',
    queries: ['what are your opening hours', 'when are you open', 'are you open on sunday', 'store hours'],
  },
  {
    name: 'Store locations',
    content: 'Find your nearest store with the store finder on our website; most stores offer click and collect.',
    queries: ['where is the nearest store', 'store near me', 'click and collect', 'find a shop'],
  },
  {
    name: 'Discount codes',
    content:
      'Enter discount codes at checkout; only one code can be used per order and codes cannot be applied afterwards.',
    queries: [
      'my discount code does not work',
      'how do I use a promo code',
      'voucher not accepted',
      'apply a discount',
    ],
  },
  {
    name: 'Warranty',
    content: 'Electronics carry a two-year warranty; contact us with your order number and a photo of the fault.',
    queries: ['my item is broken', 'warranty claim', 'product stopped working', 'faulty item'],
  },
  {
    name: 'Gift cards',
    content: 'Gift cards never expire and can be used online and in store; check the balance on the gift card page.',
    queries: ['check my gift card balance', 'buy a gift card', 'gift card not working', 'can I use a gift card online'],
  },
  {
    name: 'Account deletion',
    content: 'To close your account, ask us here and we will confirm by email within 48 hours.',
    queries: ['delete my account', 'close my account', 'remove my data', 'unsubscribe from everything'],
    actions: 'set_state key=account_closure value=requested',
  },
  {
    name: 'Speak to a person',
    content: 'Let me put you through to one of our team.',
    queries: [
      'speak to a human',
      'talk to an agent',
      'I want a real person',
      'customer service representative',
      'transfer me',
    ],
    actions:
      'handoff destination=support-queue reason=customer_request keys=caller_number shared_id=$state.conversation_id',
  },
  {
    name: 'Complaint',
    content: 'I am sorry to hear that. I am passing this to our customer care team who will call you back.',
    queries: ['I want to make a complaint', 'this is unacceptable', 'terrible service', 'I am very unhappy'],
    actions:
      'log_metric name=complaint value=yes\nhandoff destination=customer-care reason=complaint keys=caller_number',
  },
  {
    name: 'Price match',
    content:
      'We match the price of identical items from major retailers; share the link and we will adjust your order.',
    queries: ['do you price match', 'cheaper elsewhere', 'price match request'],
  },
  {
    name: 'Stock availability',
    content:
      'Stock levels on the product page update hourly; sign up for a back in stock alert if an item is sold out.',
    queries: ['is this in stock', 'when will it be back in stock', 'out of stock item', 'restock date'],
  },
];

/** What people say that no topic answers. */
export const OFF_TOPIC = [
  'what is the weather like',
  'tell me a joke',
  'who won the match last night',
  'can you book me a taxi',
  'what time is it in tokyo',
  'do you like music',
];

export const CLOSINGS = ['thanks', 'thank you, bye', 'that is all', 'great, thanks for your help'];

export const DEMO_AGENTS = [
  { name: 'Acme Support', greeting: 'Hello, you are through to Acme. How can I help today?' },
  { name: 'Acme Orders', greeting: 'Hi, this is the Acme orders line. What can I do for you?' },
  { name: 'Acme Stores', greeting: 'Welcome to Acme stores. How can I help?' },
];

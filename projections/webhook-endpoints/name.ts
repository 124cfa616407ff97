/** The read model's name: its runner, its generations, and every wait for it. */
export const WEBHOOK_ENDPOINTS_READ_MODEL = 'webhook-endpoints';

/** The read model's name: its runner, its generations, and every wait for it. */
export const ALERT_SAMPLES_READ_MODEL = 'alert-samples';

/** The read model's name: its runner, its generations, and every wait for it. */
export const SMS_SESSIONS_READ_MODEL = 'sms-sessions';

/** The read model's name: its runner, its generations, and every wait for it. */
export const DATA_ACCESS_READ_MODEL = 'data-access';

/**
 * A US Social Security number's parts as the SSA issues them: area 001-899 but never 666, group
 * 01-99, serial 0001-9999. Anything else (000, 666, 9xx, a 00 group, a 0000 serial) is never issued.
 */
export function ssnValid(area: string, group: string, serial: string): boolean {
  return area !== '000' && area !== '666' && area[0] !== '9' && group !== '00' && serial !== '0000';
}

// findLocalAddresses: a leak check's folder is not reported in its own paragraph, whatever ends the lines.
import { describe, expect, it } from 'vitest';
import { findLocalAddresses } from '../../src/lint/local-addresses.js';

const CHECK_THEN_PLACE = [
  'Run `rg -l /home/mirela dist/`: it must print nothing.',
  '',
  'The cache itself, /home/mirela/cache = 3 GB, is not shipped.',
  '',
];

describe('findLocalAddresses', () => {
  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('reports a path in the paragraph after a leak check with %s line ends', (_, eol) => {
    const text = CHECK_THEN_PLACE.join(eol);
    const found = findLocalAddresses(text).map((a) => text.slice(a.start, a.end));
    expect(found).toEqual(['/home/mirela']);
    expect(findLocalAddresses(text)[0]!.start).toBe(text.indexOf('/home/mirela/cache'));
  });

  it('does not report the folder again in the leak check\'s own paragraph', () => {
    expect(findLocalAddresses('Run `rg -l /home/mirela dist/`\r\nand /home/mirela/src must not appear.\r\n')).toEqual([]);
  });
});

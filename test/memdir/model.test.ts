import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES, decodeMemoryText, readBackMemoryText } from '../../src/memdir/model.js';

describe('readBackMemoryText', () => {
  it('reads a text back as decoding its UTF-8 bytes does', () => {
    const texts = [
      '',
      '- shipped yesterday (2026-11-19)\n',
      '\uFEFF# kept BOM\r\nline\r',
      '下周四（2026-04-30）and an emoji 🙂 paired',
      'a lone high \uD83D surrogate',
      'a lone low \uDE42 one, and a pair 🙂',
      'a NUL \u0000 byte',
      'é'.repeat(MAX_FILE_BYTES / 2) + 'x',
      'a'.repeat(MAX_FILE_BYTES),
    ];
    for (const text of texts) expect(readBackMemoryText(text)).toEqual(decodeMemoryText(Buffer.from(text, 'utf8')));
    expect(readBackMemoryText('a lone \uD83D')).toEqual({ text: 'a lone \uFFFD' });
    expect('problem' in readBackMemoryText('é'.repeat(MAX_FILE_BYTES / 2) + 'x')).toBe(true);
  });
});

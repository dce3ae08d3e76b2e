import { describe, expect, it } from 'vitest';
import { publicTypeOf } from './public.service';

/** What the public media call may serve, and as what (README "Public read API and preview"). */
describe('publicTypeOf', () => {
  it('serves images by their sniffed bytes, audio, video and PDFs by extension, nothing else', () => {
    expect(publicTypeOf({ name: 'cover.png', inline: 1, mime: 'image/png' })).toEqual({
      type: 'image/png',
      kind: 'image',
    });
    // An image's type is its bytes', whatever its name says.
    expect(publicTypeOf({ name: 'photo.svg', inline: 1, mime: 'image/jpeg' })?.type).toBe('image/jpeg');
    expect(publicTypeOf({ name: 'guide.MP3', inline: 0, mime: null })).toEqual({
      type: 'audio/mpeg',
      kind: 'audio',
    });
    expect(publicTypeOf({ name: 'film.mp4', inline: 0, mime: null })?.kind).toBe('video');
    expect(publicTypeOf({ name: 'paper.pdf', inline: 0, mime: null })?.kind).toBe('file');
    // Never an SVG, HTML or a program, and never an image whose bytes were not sniffed as one.
    for (const name of ['logo.svg', 'page.html', 'tool.exe', 'noext', 'cover.png'])
      expect(publicTypeOf({ name, inline: 0, mime: null })).toBeNull();
  });
});

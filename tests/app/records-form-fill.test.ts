import { describe, expect, it } from 'vitest';
import { emptyFieldsFilled } from '../../src/app/features/records/form-fill';
import { bsBookInfo } from '../../src/shared/records/book/books';

/**
 * A form addon fills a record form (the catalogue's 按ISBN填充): only empty fields take a
 * value, in the form's terms for their kind, and nothing the person typed is overwritten.
 */

const fields = bsBookInfo.fields;
const answer = {
  title: '红楼梦',
  subtitle: '',
  author: '曹雪芹',
  publisher: '人民文学出版社',
  publishDate: '2008-07',
  clcNo: 'I242.4',
  edition: '',
  pages: 1606,
  binding: 2,
  price: 59.7,
};

describe('filling a record form from an addon', () => {
  it('fills only the empty fields, and keeps what was typed', () => {
    const typed = {
      type: '1',
      isbn: '9787020002207',
      title: '红楼梦（上）',
      author: '',
      publisher: '  ',
      pages: '',
      binding: '',
      price: 0,
    };
    expect(emptyFieldsFilled(fields, typed, answer)).toEqual({
      author: '曹雪芹',
      publishDate: '2008-07',
      clcNo: 'I242.4',
      pages: 1606,
      binding: '2',
    });
  });

  it('leaves empty answers, unknown keys and kinds it cannot fill alone', () => {
    expect(
      emptyFieldsFilled(
        fields,
        {},
        { subtitle: '', nonsense: 'x', cover: [3], ebookFileId: [4], pages: Number.NaN },
      ),
    ).toEqual({});
  });
});

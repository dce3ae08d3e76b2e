import { describe, expect, it } from 'vitest';
import { carouselLinkProblem, isShowing } from './carousel';
import { hostAllowed, pagePathProblem, parseContentRef, urlProblem } from './common';
import { exhibitionPhase } from './exhibition';

describe('content link rules', () => {
  it('allows a host and its subdomains, nothing that merely ends alike', () => {
    const list = ['720yun.com', 'Demo-Museum.cn'];
    expect(hostAllowed('720yun.com', list)).toBe(true);
    expect(hostAllowed('pano.720yun.com', list)).toBe(true);
    expect(hostAllowed('demo-museum.cn.', list)).toBe(true);
    expect(hostAllowed('evil720yun.com', list)).toBe(false);
    expect(hostAllowed('720yun.com.evil.net', list)).toBe(false);
    expect(hostAllowed('x.com', [''])).toBe(false);
  });

  it('says what is wrong with an address, naming the field', () => {
    const list = ['720yun.com'];
    expect(urlProblem('地址', 'https://www.720yun.com/t/1', list)).toBeNull();
    expect(urlProblem('地址', 'www.720yun.com', list)).toContain('不是有效的网址');
    expect(urlProblem('地址', 'javascript:alert(1)', list)).toContain('只能使用 https 地址');
    expect(urlProblem('地址', 'data:text/html,hi', list)).toContain('只能使用 https 地址');
    expect(urlProblem('地址', 'https://a:b@720yun.com/', list)).toBe('地址不能包含用户名或密码');
    expect(urlProblem('地址', 'https://evil.net/', list)).toContain('“evil.net”不在外链白名单中');
  });

  it('reads page paths and content links', () => {
    expect(pagePathProblem('链接', '/pages/index/index')).toBeNull();
    expect(pagePathProblem('链接', 'pages/shop/detail?id=3&from=banner')).toBeNull();
    expect(pagePathProblem('链接', '//evil.net/x')).not.toBeNull();
    expect(pagePathProblem('链接', '/pages/../x')).not.toBeNull();
    expect(pagePathProblem('链接', 'https://x.cn/')).not.toBeNull();
    expect(parseContentRef('链接', 'bsExhibition:12')).toEqual({ record: 'bsExhibition', id: 12 });
    expect(parseContentRef('链接', 'wk_dynamic:1')).toContain('内容类型:编号');
    expect(parseContentRef('链接', 'bsExhibition:0')).toContain('内容类型:编号');
  });

  it("checks a carousel's link by its type", () => {
    expect(carouselLinkProblem({ linkType: 0, linkValue: '' })).toBeNull();
    expect(carouselLinkProblem({ linkType: 2, linkValue: '' })?.message).toBe(
      '链接类型为“网页”时请填写链接地址',
    );
    expect(carouselLinkProblem({ linkType: 1, linkValue: 'http://x' })?.field).toBe('linkValue');
    expect(carouselLinkProblem({ linkType: 3, linkValue: 'bsScience:4' })).toBeNull();
  });
});

describe('display', () => {
  it('shows a carousel row while published and inside its window (either end open)', () => {
    const row = { status: 1, startTime: 1000, endTime: 2000 };
    expect(isShowing(row, 999)).toBe(false);
    expect(isShowing(row, 1000)).toBe(true);
    expect(isShowing(row, 1999)).toBe(true);
    expect(isShowing(row, 2000)).toBe(false);
    expect(isShowing({ status: 1, startTime: null, endTime: null }, 5)).toBe(true);
    expect(isShowing({ status: 0, startTime: null, endTime: null }, 5)).toBe(false);
    expect(isShowing({ status: 2, startTime: null, endTime: null }, 5)).toBe(false);
  });

  it("derives an exhibition's phase from its days", () => {
    const exh = { startDate: '2026-12-01', endDate: '2027-03-01' };
    expect(exhibitionPhase(exh, '2026-11-30')).toBe('未开幕');
    expect(exhibitionPhase(exh, '2026-12-01')).toBe('展出中');
    expect(exhibitionPhase(exh, '2027-03-01')).toBe('展出中');
    expect(exhibitionPhase(exh, '2027-03-02')).toBe('已闭幕');
    expect(exhibitionPhase({ startDate: '2020-01-01', endDate: '' }, '2099-01-01')).toBe('展出中');
  });
});

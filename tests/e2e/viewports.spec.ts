import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

const SIZES = [
  { name: 'tablet-landscape', width: 1024, height: 768 },
  { name: 'tablet-portrait', width: 768, height: 1024 },
  { name: 'phone', width: 375, height: 812 },
];

for (const size of SIZES) {
  test(`usable at ${size.width}×${size.height} (${size.name})`, async ({ page }, info) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await signIn(page, 'staff09');
    await expect(page).toHaveURL(/\/home\/workbench$/);
    await expect(page.getByTestId('workbench')).toBeVisible();
    await page.screenshot({ path: info.outputPath(`${size.name}-workbench.png`), fullPage: true });

    if (size.width < 768) {
      await expect(page.getByTestId('module-rail')).toBeHidden();
      await page.getByRole('button', { name: '菜单' }).click();
      await page.locator('[data-module="system"]').click();
      await page.getByTestId('side-menu').getByText('人员管理').click();
      await expect(page.getByTestId('module-rail')).toBeHidden();
    } else {
      await page.locator('[data-module="system"]').click();
    }
    await expect(page).toHaveURL(/\/staff\/person$/);
    await expect(page.getByRole('cell', { name: 'director' })).toBeVisible();
    // Nothing may overflow the width of the screen.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: info.outputPath(`${size.name}-person.png`), fullPage: true });
  });
}

import type { ComponentType } from 'react';
import { PartyPage } from '../features/org/party-page';
import { PersonPage } from '../features/org/person-page';
import { RoleSettingPage } from '../features/org/role-setting-page';
import { PersonalPage } from '../features/personal/personal-page';
import { WorkbenchPage } from '../features/workbench/workbench-page';

/**
 * The pages that are built, by the catalogue path they answer. Every other catalogue route
 * shows the 该功能建设中 page of its module; adding a module means adding its pages here.
 */
export const BUILT_PAGES: Readonly<Record<string, ComponentType>> = {
  '/home/workbench': WorkbenchPage,
  '/staff/person': PersonPage,
  '/staff/party': PartyPage,
  '/staff/role/setting': RoleSettingPage,
  '/personal/base': PersonalPage,
};

/**
 * A task's state: open or done. Kept apart from project.ts's schemas, without zod, because the
 * offline copy of the boards (app/lib/projects.ts) starts with every signed-in page and zod
 * would otherwise load with the workbench (issue 25). project.ts re-exports both.
 */
export const TASK_OPEN = 1;
export const TASK_DONE = 2;

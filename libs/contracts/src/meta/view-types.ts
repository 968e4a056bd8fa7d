import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { USERS } from '../endpoint/access';
import { nameRef } from '../common/refs';
import { META, tableParams, viewParams } from './paging';
import { viewSchema } from './resources';
import { onTable, onView, onViewColumn } from './scopes';

/**
 * NocoDB's view types beyond the grid (issue 29): the create, read and update
 * paths nocodb-sdk's `dbView.*` call, a view's columns (show, order, width,
 * form-field settings), show all / hide all. A view's `type` reads as NocoDB's
 * number (`VIEW_TYPE_NUMBERS`).
 */

/** The view kinds, by NocoDB's ViewTypes number. */
export const VIEW_TYPE_NUMBERS = { form: 1, gallery: 2, grid: 3, kanban: 4, map: 5, calendar: 6 } as const;
export type ViewKind = keyof typeof VIEW_TYPE_NUMBERS;

/** The settings each kind keeps beside its title and meta (NocoDB's per-kind view tables). */
export const VIEW_DETAIL_FIELDS: Record<ViewKind, readonly string[]> = {
  grid: ['row_height'],
  form: ['heading', 'subheading', 'success_msg', 'redirect_url', 'redirect_after_secs', 'email', 'submit_another_form', 'show_blank_form', 'banner_image_url', 'logo_url'],
  gallery: ['fk_cover_image_col_id', 'next_enabled', 'prev_enabled', 'cover_image_idx', 'cover_image', 'restrict_types', 'restrict_size', 'restrict_number'],
  kanban: ['fk_grp_col_id', 'fk_cover_image_col_id'],
  calendar: ['calendar_range', 'fk_cover_image_col_id'],
  map: ['fk_geo_data_col_id'],
};

const text = z.string().max(10_000).nullish();
const flag = z.boolean().nullish();
const columnRef = z.string().min(1).max(64).nullish();

/** Body of a typed view create / update: the title, meta and the kind's own settings. */
export const viewDetailsBodySchema = z.looseObject({
  title: z.string().trim().min(1, 'title is required').max(255),
  meta: z.union([z.record(z.string(), z.unknown()), z.string().max(100_000)]).nullish(),
  copy_from_id: z.string().max(64).nullish(),
  row_height: z.number().int().min(0).max(3).nullish(),
  heading: text, subheading: text, success_msg: text, redirect_url: z.string().max(2048).nullish(),
  redirect_after_secs: z.union([z.number().int().min(0), z.string().regex(/^\d+$/)]).nullish(),
  email: text, submit_another_form: flag, show_blank_form: flag, banner_image_url: text, logo_url: text,
  fk_cover_image_col_id: columnRef, next_enabled: flag, prev_enabled: flag, cover_image_idx: z.number().int().nullish(),
  cover_image: text, restrict_types: text, restrict_size: text, restrict_number: text,
  fk_grp_col_id: columnRef, fk_geo_data_col_id: columnRef,
  calendar_range: z.array(z.object({ fk_from_column_id: z.string().min(1).max(64), fk_to_column_id: columnRef })).max(10).nullish(),
});
export type ViewDetailsBody = z.infer<typeof viewDetailsBodySchema>;

/** The body of one kind's create (`copy_from_id` too) or update: its own settings, no other kind's. */
function bodyOf(kind: ViewKind, creating: boolean) {
  const keys = ['title', 'meta', ...(creating ? ['copy_from_id'] : []), ...VIEW_DETAIL_FIELDS[kind]];
  const picked = viewDetailsBodySchema.pick(Object.fromEntries(keys.map((k) => [k, true])) as { title: true });
  return (creating ? picked : picked.partial()) as unknown as z.ZodType<Partial<ViewDetailsBody>> & typeof picked;
}
/** A grid's create body (grids and copies). */
export const gridCreateBodySchema = bodyOf('grid', true) as unknown as z.ZodType<ViewDetailsBody>;

/** A view column as NocoDB lists it (grid: width; form: label, help, description, required). */
export const viewColumnSchema = z.looseObject({
  id: z.string(), fk_view_id: z.string(), fk_column_id: z.string(), show: z.boolean(), order: z.number(),
  width: z.string().nullish(), base_id: z.string().optional(), source_id: z.string().optional(),
});

/** A view column update: show, order, width and a form field's settings. */
export const viewColumnBodySchema = z.looseObject({
  show: z.union([z.boolean(), z.literal(0), z.literal(1)]).optional(),
  order: z.number().finite().optional(),
  width: z.union([z.string().regex(/^\d{1,5}(px)?$/, 'width is a number of pixels, e.g. 200px'), z.number().int().min(0).max(99_999)]).nullish(),
  label: text, help: text, description: text, required: flag,
});

const common = { service: 'meta', tags: ['Views'], errors: [400, 403, 404] } as const;

const PLURAL: Record<Exclude<ViewKind, 'grid'>, string> = { form: 'forms', gallery: 'galleries', kanban: 'kanbans', calendar: 'calendars', map: 'maps' };
const CAPITAL = (kind: string) => kind[0]!.toUpperCase() + kind.slice(1);

function createOf<K extends Exclude<ViewKind, 'grid'>>(kind: K) {
  return defineEndpoint({
    ...common, id: `${kind}Create` as `${K}Create`, method: 'POST', path: `${META}/tables/{tableId}/${PLURAL[kind]}`,
    summary: `Create a ${kind} view`,
    auth: { callers: USERS, permission: 'schema.write', scope: onTable },
    params: tableParams, body: bodyOf(kind, true) as unknown as z.ZodType<ViewDetailsBody>, response: viewSchema, example: { request: { title: `${CAPITAL(kind)} view` } },
  });
}
function readOf<K extends Exclude<ViewKind, 'grid'>>(kind: K) {
  return defineEndpoint({
    ...common, id: `${kind}Read` as `${K}Read`, method: 'GET', path: `${META}/${PLURAL[kind]}/{viewId}`,
    summary: `Read a ${kind} view's settings`,
    auth: { callers: USERS, permission: 'base.read', scope: onView },
    params: viewParams, response: z.looseObject({ fk_view_id: z.string(), columns: z.array(viewColumnSchema).optional() }),
  });
}
function updateOf<K extends ViewKind>(kind: K) {
  return defineEndpoint({
    ...common, id: `${kind}Update` as `${K}Update`, method: 'PATCH', path: `${META}/${kind === 'grid' ? 'grids' : PLURAL[kind as Exclude<ViewKind, 'grid'>]}/{viewId}`,
    summary: `Update a ${kind} view's settings`,
    auth: { callers: USERS, permission: 'schema.write', scope: onView },
    params: viewParams, body: bodyOf(kind, false) as unknown as z.ZodType<Partial<ViewDetailsBody>>, response: viewSchema,
  });
}

export const formCreate = createOf('form');
export const galleryCreate = createOf('gallery');
export const kanbanCreate = createOf('kanban');
export const calendarCreate = createOf('calendar');
export const mapCreate = createOf('map');
export const formRead = readOf('form');
export const galleryRead = readOf('gallery');
export const kanbanRead = readOf('kanban');
export const calendarRead = readOf('calendar');
export const mapRead = readOf('map');
export const gridUpdate = updateOf('grid');
export const formUpdate = updateOf('form');
export const galleryUpdate = updateOf('gallery');
export const kanbanUpdate = updateOf('kanban');
export const calendarUpdate = updateOf('calendar');
export const mapUpdate = updateOf('map');

/** The typed view endpoints, by kind. */
export const viewKindEndpoints = {
  create: { form: formCreate, gallery: galleryCreate, kanban: kanbanCreate, calendar: calendarCreate, map: mapCreate },
  read: { form: formRead, gallery: galleryRead, kanban: kanbanRead, calendar: calendarRead, map: mapRead },
  update: { grid: gridUpdate, form: formUpdate, gallery: galleryUpdate, kanban: kanbanUpdate, calendar: calendarUpdate, map: mapUpdate },
} as const;

const viewColumnParams = z.object({ viewId: nameRef, columnId: nameRef });
const viewColumnIdParams = z.object({ columnId: nameRef });
const columnList = z.object({ list: z.array(viewColumnSchema) });

export const viewColumnList = defineEndpoint({
  ...common, id: 'viewColumnList', method: 'GET', path: `${META}/views/{viewId}/columns`, summary: "List a view's columns",
  auth: { callers: USERS, permission: 'base.read', scope: onView },
  params: viewParams, response: columnList,
});
export const viewColumnCreate = defineEndpoint({
  ...common, id: 'viewColumnCreate', method: 'POST', path: `${META}/views/{viewId}/columns`,
  summary: "Set a column's place in a view (show, order)",
  auth: { callers: USERS, permission: 'schema.write', scope: onView },
  params: viewParams, body: viewColumnBodySchema.extend({ fk_column_id: z.string().min(1).max(64) }), response: viewColumnSchema,
});
export const viewColumnUpdate = defineEndpoint({
  ...common, id: 'viewColumnUpdate', method: 'PATCH', path: `${META}/views/{viewId}/columns/{columnId}`,
  summary: 'Show, hide or move a column in a view',
  auth: { callers: USERS, permission: 'schema.write', scope: onView },
  params: viewColumnParams, body: viewColumnBodySchema, response: viewColumnSchema,
});
const ignoreIdsQuery = z.object({
  ignoreIds: z.union([z.string().max(10_000), z.array(z.string().max(64)).max(1000)]).optional()
    .transform((v) => (v === undefined ? [] : (Array.isArray(v) ? v : v.split(',')).map((id) => id.trim()).filter(Boolean))),
});
export const viewShowAll = defineEndpoint({
  ...common, id: 'viewShowAll', method: 'POST', path: `${META}/views/{viewId}/show-all`, summary: 'Show every column of a view',
  auth: { callers: USERS, permission: 'schema.write', scope: onView },
  params: viewParams, query: ignoreIdsQuery, response: z.boolean(), example: { response: true },
});
export const viewHideAll = defineEndpoint({
  ...common, id: 'viewHideAll', method: 'POST', path: `${META}/views/{viewId}/hide-all`, summary: 'Hide every column of a view but the display column',
  auth: { callers: USERS, permission: 'schema.write', scope: onView },
  params: viewParams, query: ignoreIdsQuery, response: z.boolean(), example: { response: true },
});
export const gridColumnList = defineEndpoint({
  ...common, id: 'gridColumnList', method: 'GET', path: `${META}/grids/{viewId}/grid-columns`, summary: "A grid view's columns with their widths",
  auth: { callers: USERS, permission: 'base.read', scope: onView },
  params: viewParams, response: z.array(viewColumnSchema),
});
export const gridColumnUpdate = defineEndpoint({
  ...common, id: 'gridColumnUpdate', method: 'PATCH', path: `${META}/grid-columns/{columnId}`, summary: "Set a grid column's width, place or visibility",
  auth: { callers: USERS, permission: 'schema.write', scope: onViewColumn },
  params: viewColumnIdParams, body: viewColumnBodySchema, response: viewColumnSchema,
});
export const formColumnUpdate = defineEndpoint({
  ...common, id: 'formColumnUpdate', method: 'PATCH', path: `${META}/form-columns/{columnId}`, summary: "Set a form field's label, help, requirement or place",
  auth: { callers: USERS, permission: 'schema.write', scope: onViewColumn },
  params: viewColumnIdParams, body: viewColumnBodySchema, response: viewColumnSchema,
});

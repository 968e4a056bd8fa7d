import { withOutbox } from '@tabula/events';
import { z } from 'zod';
import { errors } from '@tabula/http';
import { newId } from '@tabula/db';
import { isCalendarDateUidt, isSelectUidt } from '@tabula/query';
import {
  VIEW_DETAIL_FIELDS, viewColumnBodySchema, type ViewDetailsBody, type ViewKind,
} from '@tabula/contracts';
import type { MetaPorts } from '../../ports';
import { listColumns, type ColumnRow } from '../../repositories/column.repository';
import {
  findViewColumn, insertView, insertViewColumns, listViewColumns as listViewColumnRows, listViewsOf, nextViewOrder,
  setViewColumnsShown, updateView as updateViewRow, updateViewColumn as updateViewColumnRow, type ViewColumnRow, type ViewRow,
} from '../../repositories/view.repository';
import { enqueueViewEvent } from '../../events/meta-event.producer';
import type { TableInScope, ViewColumnInScope, ViewInScope } from '../scopes/meta-scopes';
import { loadViews } from '../tables/table-detail';
import { kindSettings, presentViewColumn, publicView } from '../../presenters/view.presenter';

/**
 * NocoDB's view kinds beyond the grid — form, gallery, kanban, calendar, map —
 * and a view's columns (show, order, width, form-field settings). A kind's own
 * settings live in the view's `details`; a column a setting names must be a
 * column of the view's table of a fitting type (a kanban groups by a
 * SingleSelect, a calendar places records by a date, a cover is an Attachment,
 * a map reads GeoData).
 */

type ViewColumnBody = z.infer<typeof viewColumnBodySchema>;

/** The column a setting names, of the kind it needs (400 otherwise). */
function columnOf(columns: ColumnRow[], id: unknown, setting: string, fits: (c: ColumnRow) => boolean, what: string): ColumnRow {
  const column = columns.find((c) => c.id === id);
  if (!column) throw errors.badRequest(`${setting}: column '${String(id)}' is not a column of this table`);
  if (!fits(column)) throw errors.badRequest(`${setting}: column '${column.title}' is a ${column.uidt}, not ${what}`);
  return column;
}

const isAttachment = (c: ColumnRow) => c.uidt === 'Attachment';
const isSingleSelect = (c: ColumnRow) => isSelectUidt(c.uidt) && c.uidt !== 'MultiSelect';
const isCalendarDate = (c: ColumnRow) => isCalendarDateUidt(c.uidt);
const isGeoData = (c: ColumnRow) => c.uidt === 'GeoData';

/**
 * The kind's settings from a create or update body, every column they name
 * checked against the table's columns (NocoDB stores any id). On create the
 * column a kind places its cards by defaults to the first fitting one, or none,
 * as NocoDB does; a form's heading defaults to its title.
 */
function detailsOf(kind: ViewKind, body: Partial<ViewDetailsBody>, columns: ColumnRow[], before: Record<string, unknown> | null, creating: boolean): Record<string, unknown> {
  const details: Record<string, unknown> = { ...(before ?? {}) };
  for (const field of VIEW_DETAIL_FIELDS[kind]) {
    const value = (body as Record<string, unknown>)[field];
    if (value !== undefined) details[field] = value;
  }
  const first = (fits: (c: ColumnRow) => boolean) => columns.find((c) => !c.system && fits(c))?.id ?? null;
  if (creating) {
    if (kind === 'form' && details.heading === undefined) details.heading = body.title ?? null;
    if ((kind === 'gallery' || kind === 'kanban') && details.fk_cover_image_col_id === undefined) details.fk_cover_image_col_id = first(isAttachment);
    if (kind === 'kanban' && !details.fk_grp_col_id) details.fk_grp_col_id = first(isSingleSelect);
    if (kind === 'map' && !details.fk_geo_data_col_id) details.fk_geo_data_col_id = first(isGeoData);
    if (kind === 'calendar' && !(details.calendar_range as unknown[] | undefined)?.length) {
      const date = first(isCalendarDate);
      details.calendar_range = date ? [{ fk_from_column_id: date }] : [];
    }
  }
  if (details.fk_cover_image_col_id) columnOf(columns, details.fk_cover_image_col_id, 'fk_cover_image_col_id', isAttachment, 'an Attachment');
  if (details.fk_grp_col_id) columnOf(columns, details.fk_grp_col_id, 'fk_grp_col_id', isSingleSelect, 'a SingleSelect');
  if (details.fk_geo_data_col_id) columnOf(columns, details.fk_geo_data_col_id, 'fk_geo_data_col_id', isGeoData, 'a GeoData');
  for (const r of (details.calendar_range as { fk_from_column_id: string; fk_to_column_id?: string | null }[] | undefined) ?? []) {
    columnOf(columns, r.fk_from_column_id, 'calendar_range.fk_from_column_id', isCalendarDate, 'a date');
    if (r.fk_to_column_id) columnOf(columns, r.fk_to_column_id, 'calendar_range.fk_to_column_id', isCalendarDate, 'a date');
  }
  return details;
}

/** `meta` arrives as an object or as NocoDB's JSON text. */
function metaOf(meta: ViewDetailsBody['meta']): Record<string, unknown> | null | undefined {
  if (typeof meta !== 'string') return meta;
  try {
    const parsed: unknown = JSON.parse(meta);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch { /* answered below */ }
  throw errors.badRequest('meta: must be a JSON object');
}

/**
 * Which columns a new view shows, in which order: a grid every non-system
 * column; a form the display value first, then every other column a person
 * fills (not the primary key); a gallery, kanban, calendar or map card the
 * display value first and the next two such columns (NocoDB's new card). `from` copies another view's layout.
 */
function initialColumns(kind: ViewKind, columns: ColumnRow[], viewId: string, from?: ViewColumnRow[]): ViewColumnRow[] {
  const width = kind === 'grid' ? '200px' : null;
  if (from) {
    const byColumn = new Map(from.map((c) => [c.fk_column_id, c]));
    return columns.map((c, i) => {
      const copied = byColumn.get(c.id);
      return { id: newId('nc'), fk_view_id: viewId, fk_column_id: c.id, show: copied ? copied.show : !c.system, order: copied?.order ?? i + 1, width: copied?.width ?? width, details: copied?.details ?? null };
    });
  }
  const ordered = kind === 'grid' ? columns : [...columns.filter((c) => c.pv), ...columns.filter((c) => !c.pv)];
  const card = kind === 'gallery' || kind === 'kanban' || kind === 'calendar' || kind === 'map';
  const onCard = new Set(ordered.filter((c) => !c.system && !c.pk).slice(0, 3).map((c) => c.id));
  return ordered.map((c, i) => ({
    id: newId('nc'), fk_view_id: viewId, fk_column_id: c.id, order: i + 1, width, details: null,
    show: !c.system && (card ? onCard.has(c.id) : kind !== 'form' || !c.pk),
  }));
}

/** The public view by id, after a write. */
async function viewAfter(ports: MetaPorts, tableId: string, viewId: string) {
  return publicView((await loadViews(ports.db, tableId)).find((v) => v.id === viewId)!);
}

/** Creates a view of a kind (title unique in the table; `copy_from_id` copies another view's column layout). */
export async function createKindView(ports: MetaPorts, scope: TableInScope, kind: ViewKind, input: ViewDetailsBody) {
  const { value: { table }, principal } = scope;
  const [views, columns] = await Promise.all([listViewsOf(ports.db, [table.id]), listColumns(ports.db, table.id)]);
  if (views.some((v) => v.title.toLowerCase() === input.title.toLowerCase())) throw errors.badRequest(`Duplicate view title '${input.title}'`);
  let from: ViewColumnRow[] | undefined;
  if (input.copy_from_id) {
    if (!views.some((v) => v.id === input.copy_from_id)) throw errors.badRequest(`copy_from_id: view '${input.copy_from_id}' is not a view of this table`);
    from = await listViewColumnRows(ports.db, [input.copy_from_id]);
  }
  const id = newId('vw');
  const details = detailsOf(kind, input, columns, null, true);
  await withOutbox(ports.db, ports.relay, async (trx) => {
    const view = {
      id, fk_model_id: table.id, base_id: table.base_id, title: input.title, type: kind, is_default: false,
      order: await nextViewOrder(trx, table.id), meta: metaOf(input.meta) ?? null, details,
    };
    await insertView(trx, view);
    await insertViewColumns(trx, initialColumns(kind, columns, id, from));
    await enqueueViewEvent(trx, 'created', view, principal);
  });
  return viewAfter(ports, table.id, id);
}

/** A view of the kind the path names; any other view answers like a missing one. */
function ofKind(view: ViewRow, kind: ViewKind): ViewRow {
  if (view.type !== kind) throw errors.notFound('ERR_VIEW_NOT_FOUND', `View '${view.id}' not found`);
  return view;
}

/** A kind's settings (`GET /forms/{id}`…), with the form's columns for a form. */
export async function readKindView(ports: MetaPorts, scope: ViewInScope, kind: ViewKind) {
  const view = ofKind(scope.value.view, kind);
  const settings = { ...kindSettings(view), meta: view.meta ?? {}, created_at: view.created_at, updated_at: view.updated_at };
  if (kind !== 'form') return settings;
  const columns = await listViewColumnRows(ports.db, [view.id]);
  return { ...settings, columns: columns.map((c) => presentViewColumn(c, view)) };
}

/** Changes a view's title, meta or its kind's settings. */
export async function updateKindView(ports: MetaPorts, scope: ViewInScope, kind: ViewKind, input: Partial<ViewDetailsBody>) {
  const { value: { table }, principal } = scope;
  const view = ofKind(scope.value.view, kind);
  if (input.title !== undefined) {
    const views = await listViewsOf(ports.db, [table.id]);
    if (views.some((v) => v.id !== view.id && v.title.toLowerCase() === input.title!.toLowerCase())) throw errors.badRequest(`Duplicate view title '${input.title}'`);
  }
  const details = detailsOf(kind, input, await listColumns(ports.db, table.id), view.details ?? null, false);
  await withOutbox(ports.db, ports.relay, async (trx) => {
    const patch: Partial<ViewRow> = { details, updated_at: trx.fn.now() as unknown as Date };
    if (input.title !== undefined) patch.title = input.title;
    const meta = metaOf(input.meta);
    if (meta !== undefined) patch.meta = meta;
    await updateViewRow(trx, view.id, patch);
    await enqueueViewEvent(trx, 'updated', { ...view, title: input.title ?? view.title }, principal);
  });
  return viewAfter(ports, table.id, view.id);
}

/** A view's columns in their order. */
export async function listColumnsOfView(ports: MetaPorts, scope: ViewInScope) {
  const { view } = scope.value;
  return { list: (await listViewColumnRows(ports.db, [view.id])).map((c) => presentViewColumn(c, view)) };
}

/** The patch a column body asks for (a form field's settings under details). */
function columnPatch(row: ViewColumnRow, body: ViewColumnBody): Partial<ViewColumnRow> {
  const patch: Partial<ViewColumnRow> = {};
  if (body.show !== undefined) patch.show = Boolean(body.show);
  if (body.order !== undefined) patch.order = body.order;
  if (body.width !== undefined) patch.width = body.width === null ? null : `${String(body.width).replace(/px$/, '')}px`;
  const form: Record<string, unknown> = {};
  for (const field of ['label', 'help', 'description', 'required'] as const) if (body[field] !== undefined) form[field] = body[field];
  if (Object.keys(form).length) patch.details = { ...(row.details ?? {}), ...form };
  return patch;
}

/** Applies a column body to one view column and tells the services that read views. */
async function patchColumn(ports: MetaPorts, view: ViewRow, row: ViewColumnRow, body: ViewColumnBody, principal: ViewInScope['principal']) {
  const patch = columnPatch(row, body);
  await withOutbox(ports.db, ports.relay, async (trx) => {
    if (Object.keys(patch).length) await updateViewColumnRow(trx, row.id, patch);
    await enqueueViewEvent(trx, 'updated', view, principal);
  });
  return presentViewColumn({ ...row, ...patch }, view);
}

/** Shows, hides, moves or sizes a column of a view (`{columnId}`: the view column's id, or the column's). */
export async function updateColumnOfView(ports: MetaPorts, scope: ViewInScope, columnId: string, body: ViewColumnBody) {
  const { value: { view }, principal } = scope;
  const row = await findViewColumn(ports.db, view.id, columnId);
  if (!row) throw errors.notFound('ERR_COLUMN_NOT_FOUND', `Column '${columnId}' not found`);
  return patchColumn(ports, view, row, body, principal);
}

/** `POST /views/{id}/columns`: NocoDB's upsert of a column's place in a view, by `fk_column_id`. */
export async function createColumnOfView(ports: MetaPorts, scope: ViewInScope, body: ViewColumnBody & { fk_column_id: string }) {
  const { value: { view }, principal } = scope;
  const row = await findViewColumn(ports.db, view.id, body.fk_column_id);
  if (!row || row.fk_column_id !== body.fk_column_id) throw errors.notFound('ERR_COLUMN_NOT_FOUND', `Column '${body.fk_column_id}' not found`);
  return patchColumn(ports, view, row, body, principal);
}

/** The same change through grid-columns / form-columns, by the view column's id. */
export async function updateViewColumnById(ports: MetaPorts, scope: ViewColumnInScope, body: ViewColumnBody) {
  const { value: { view, viewColumn }, principal } = scope;
  return patchColumn(ports, view, viewColumn, body, principal);
}

/** A grid view's columns (NocoDB answers the bare list here). */
export async function gridColumnsOf(ports: MetaPorts, scope: ViewInScope) {
  const view = ofKind(scope.value.view, 'grid');
  return (await listViewColumnRows(ports.db, [view.id])).map((c) => presentViewColumn(c, view));
}

/** Show all / hide all (as NocoDB: the display value too), but the columns in `ignoreIds`; system columns stay hidden. */
export async function showOrHideAll(ports: MetaPorts, scope: ViewInScope, show: boolean, ignoreIds: string[]) {
  const { value: { view, table }, principal } = scope;
  const columns = await listColumns(ports.db, table.id);
  const keep = [...ignoreIds, ...columns.filter((c) => c.system).map((c) => c.id)];
  await withOutbox(ports.db, ports.relay, async (trx) => {
    await setViewColumnsShown(trx, view.id, show, keep);
    await enqueueViewEvent(trx, 'updated', view, principal);
  });
  return true;
}

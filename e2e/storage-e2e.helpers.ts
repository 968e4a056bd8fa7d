import { createHash } from 'node:crypto';
import http from 'node:http';
import { TestApi, col, columnOf } from '@tabula/testing';

/** sha256 hex of bytes. */
export const sha256 = (b: Buffer | Uint8Array): string => createHash('sha256').update(b).digest('hex');

/** Signs up a user; returns the JWT. */
export async function signup(url: string, email: string): Promise<string> {
  return (await new TestApi(url).signUp('storage', email)).token;
}

/** A file for {@link upload}. */
export interface UploadPart {
  name?: string;
  field?: string;
  type?: string;
  data: Buffer | Uint8Array;
}

/** POST /api/v1/db/storage/upload with a multipart body (fetch + FormData). */
export async function upload(url: string, token: string | undefined, parts: UploadPart[], query = ''): Promise<{ status: number; body: any }> {
  const form = new FormData();
  for (const p of parts) form.append(p.field ?? 'file', new Blob([p.data], { type: p.type ?? 'application/octet-stream' }), p.name ?? 'file.bin');
  const res = await fetch(`${url}/api/v1/db/storage/upload${query}`, { method: 'POST', headers: token ? { 'xc-auth': token } : {}, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A raw GET whose path is sent exactly as given (no URL normalization), body collected. */
export function rawGet(url: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A JSON call. */
export async function json(url: string, token: string | undefined, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await new TestApi(url).call(method, path, { token, body, headers: { 'content-type': 'application/json' } });
  return { status: res.status, body: res.body };
}

/** A base with one table (Id, Name, Files: Attachment); returns ids. */
export async function attachmentTable(url: string, token: string): Promise<{ baseId: string; tableId: string; filesColumnId: string }> {
  const api = new TestApi(url);
  const table = await api.baseWithTable({ token }, { title: 'Docs', table_name: 'docs', columns: [col.id(), col.text('Name'), col.attachment('Files')] });
  return { baseId: table.baseId, tableId: table.id, filesColumnId: columnOf(table, 'Files').id };
}

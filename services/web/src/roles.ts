/** What a base role may do in the UI (the API refuses the rest; libs/contracts endpoint/access.ts). */
const RANK: Record<string, number> = { 'no-access': 0, viewer: 1, commenter: 2, editor: 3, creator: 4, owner: 5 };

function rank(role: string): number {
  return Math.max(0, ...role.split(',').map((r) => RANK[r.trim()] ?? 0));
}

export const canComment = (role: string) => rank(role) >= RANK.commenter;
export const canEditData = (role: string) => rank(role) >= RANK.editor;
export const canEditSchema = (role: string) => rank(role) >= RANK.creator;

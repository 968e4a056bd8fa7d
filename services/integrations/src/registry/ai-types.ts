import { z } from 'zod';
import type { SubTypeDefinition } from './type-definition';

const model = z.string().trim().min(1).max(128).describe('Model name, e.g. gpt-4o-mini');
const baseURL = z.string().url('baseURL must be a URL').max(2048).refine((u) => /^https?:\/\//.test(u), 'baseURL must be http(s)');

/** AI sub-types: OpenAI itself and any OpenAI-compatible chat-completions server. */
export const aiTypes: SubTypeDefinition[] = [
  {
    type: 'ai', sub_type: 'openai', title: 'OpenAI', icon: 'openai', secret_fields: ['apiKey'], endpoints: ['chat'],
    schema: z.object({
      apiKey: z.string().min(1, 'apiKey is required').max(1024).describe('API key (secret)'),
      model: model.default('gpt-4o-mini'),
      baseURL: baseURL.default('https://api.openai.com/v1').describe('API base URL'),
      organization: z.string().max(128).optional(),
    }).passthrough(),
  },
  {
    type: 'ai', sub_type: 'openai-compatible', title: 'OpenAI-compatible', icon: 'ai', secret_fields: ['apiKey'], endpoints: ['chat'],
    schema: z.object({
      baseURL: baseURL.describe('Base URL of the OpenAI-compatible API (…/v1)'),
      apiKey: z.string().max(1024).optional().describe('API key (secret)'),
      model,
    }).passthrough(),
  },
];

import { z } from 'zod';

const httpUrl = z
  .string()
  .max(2000)
  .url()
  .refine((url) => /^https?:\/\//i.test(url), 'Only http and https addresses.');

/** Web search is off until the user turns it on and gives a SearXNG instance (local or self-hosted). */
export const WebSearchSettings = z.object({
  enabled: z.boolean().default(false),
  /** Base URL of a SearXNG instance with its JSON format enabled. */
  searxngUrl: httpUrl.nullable().default(null),
  /** Results from these domains (and their subdomains) are dropped. */
  blockedDomains: z.array(z.string().min(1).max(253)).max(200).default([]),
  /** Results kept per search. */
  maxResults: z.number().int().min(1).max(20).default(5),
  /** Results whose snippet is shorter are dropped (too little to judge them by). */
  minSnippetChars: z.number().int().min(0).max(500).default(40),
});
export type WebSearchSettings = z.infer<typeof WebSearchSettings>;

export const WebResult = z.object({
  url: z.string(),
  title: z.string(),
  snippet: z.string(),
  isPdf: z.boolean(),
});
export type WebResult = z.infer<typeof WebResult>;

export { httpUrl as WebUrl };

import { site } from '../lib/site';

/** The external blog's address of a post (cards' Read More and the RSS items). */
export function blogPostUrl(id: string): string {
  return `${site.external.blog.replace(/\/$/, '')}/${id}`;
}

/** Newest first. */
export function sortPosts<T extends { data: { date: Date } }>(posts: T[]): T[] {
  return [...posts].sort((a, b) => b.data.date.getTime() - a.data.date.getTime());
}

import rss from '@astrojs/rss';
import { getCollection } from 'astro:content';
import type { APIContext } from 'astro';
import { site } from '../lib/site';
import { blogPostUrl, sortPosts } from '../content/blog';

/** RSS feed of the blog's articles (linked from /blog). Items point to the full posts on the external blog. */
export async function GET(context: APIContext) {
  const posts = sortPosts(await getCollection('blog'));
  return rss({
    title: `${site.brand} Blog`,
    description: 'Practical articles on putting AI to work in your business.',
    site: context.site ?? site.url,
    items: posts.map((post) => ({
      title: post.data.title,
      description: post.data.excerpt,
      pubDate: post.data.date,
      link: blogPostUrl(post.id),
      categories: [post.data.category],
    })),
  });
}

import rss from '@astrojs/rss';
import { getContainerRenderer as getMdxRenderer } from '@astrojs/mdx/container-renderer';
import type { APIContext } from 'astro';
import { loadRenderers } from 'astro:container';
import { getCollection } from 'astro:content';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import FeedArticle from '../components/blog/FeedArticle.astro';
import { site } from '../lib/site';
import { absoluteUrls, postHref, sortPosts } from '../content/blog';

/**
 * The blog's RSS feed (linked from /blog and every post), newest first, each article in full: image and MDX
 * body rendered to HTML through Astro's container API (the documented way to render MDX outside a page), with
 * site-relative links made absolute for feed readers. Items link to the post pages, or to the external blog
 * when PUBLIC_EXTERNAL_BLOG_URL is set.
 */
export async function GET(context: APIContext) {
  const origin = context.site ?? new URL(site.url);
  const posts = sortPosts(await getCollection('blog'));
  const container = await AstroContainer.create({ renderers: await loadRenderers([getMdxRenderer()]) });
  const items = await Promise.all(
    posts.map(async (post) => ({
      title: post.data.title,
      description: post.data.excerpt,
      pubDate: post.data.date,
      link: postHref(post.id),
      categories: [post.data.category],
      // A card-only post (possible with an external blog) has no article to include.
      content: post.body?.trim() ? absoluteUrls(await container.renderToString(FeedArticle, { props: { post } }), origin) : undefined,
    })),
  );
  return rss({
    title: `${site.brand} Blog`,
    description: 'Practical articles on putting AI to work in your business.',
    site: origin,
    trailingSlash: false,
    customData: '<language>en-us</language>',
    items,
  });
}

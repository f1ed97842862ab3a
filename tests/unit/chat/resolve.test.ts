import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { costTier, pricingOf, resolveModels, type CatalogueEntry } from '../../../netlify/lib/chat/resolve';
import { CHAT_MODEL_PICKS, DEFAULT_MODEL_ID, MAX_OUTPUT_TOKENS } from '../../../src/lib/chat/models';

const catalogue = (JSON.parse(readFileSync(new URL('../../support/fixtures/openrouter-models.json', import.meta.url), 'utf8')) as { data: CatalogueEntry[] }).data;
const without = (ids: string[]) => catalogue.filter((e) => !ids.includes(e.id));

describe('resolveModels', () => {
  it('offers every pick the catalogue lists, labelled from the catalogue, with a large Anthropic default', () => {
    const r = resolveModels(catalogue);
    expect(r.verified).toBe(true);
    expect(r.models.map((m) => m.id)).toEqual(CHAT_MODEL_PICKS.map((p) => p.id));
    expect(r.defaultModel).toBe(DEFAULT_MODEL_ID);
    const opus = r.models.find((m) => m.id === 'anthropic/claude-opus-4.5')!;
    expect(opus).toMatchObject({ cost: '$$$', vision: true, contextLength: 200_000, maxOutputTokens: MAX_OUTPUT_TOKENS.$$$ });
    expect(r.models.find((m) => m.id === 'deepseek/deepseek-r1-0528:free')).toMatchObject({ cost: 'Free', vision: false });
    // Vision from architecture.input_modalities, not from the curated flag.
    expect(r.models.find((m) => m.id === 'meta-llama/llama-3.3-70b-instruct')!.vision).toBe(false);
    expect(r.models.find((m) => m.id === 'meta-llama/llama-4-maverick')!.vision).toBe(true);
  });

  it('replaces a pick that is gone by the newest of its family, drops one without a family member, never offers a missing id', () => {
    const gone = ['anthropic/claude-opus-4.5', 'openai/gpt-5', 'meta-llama/llama-3.3-70b-instruct:free', 'openai/gpt-4o'];
    const r = resolveModels(without(gone));
    const ids = r.models.map((m) => m.id);
    for (const id of ids) expect(catalogue.some((e) => e.id === id && !gone.includes(id)), id).toBe(true);
    expect(r.replaced).toContainEqual({ pick: 'anthropic/claude-opus-4.5', by: 'anthropic/claude-opus-4.1' });
    // No other openai/gpt-N is listed, and exact picks have no family: those are dropped.
    expect(r.dropped).toEqual(['openai/gpt-5', 'openai/gpt-4o', 'meta-llama/llama-3.3-70b-instruct:free']);
    expect(r.defaultModel).toBe('anthropic/claude-opus-4.1');
    expect(new Set(ids).size).toBe(ids.length);
    // The stand-in's price is the catalogue's: Opus 4.1 costs $75/M out.
    expect(r.models.find((m) => m.id === 'anthropic/claude-opus-4.1')).toMatchObject({ cost: '$$$$', speed: 'Slow', quality: 'Excellent', maxOutputTokens: MAX_OUTPUT_TOKENS.$$$$ });
  });

  it('never lets the reply cap pass the provider maximum', () => {
    const small = catalogue.map((e) => (e.id === 'openai/gpt-4o-mini' ? { ...e, top_provider: { max_completion_tokens: 512 } } : e));
    expect(resolveModels(small).models.find((m) => m.id === 'openai/gpt-4o-mini')!.maxOutputTokens).toBe(512);
  });

  it('serves the curated list unverified without a catalogue', () => {
    const r = resolveModels(null);
    expect(r.verified).toBe(false);
    expect(r.models).toHaveLength(CHAT_MODEL_PICKS.length);
    expect(r.defaultModel).toBe(DEFAULT_MODEL_ID);
  });

  it('follows the operator pins, and the default pin when offered', () => {
    const r = resolveModels(catalogue, { pins: ['x-ai/grok-4', 'openai/gpt-4o', 'no/such-model'], defaultPin: 'openai/gpt-4o' });
    expect(r.models.map((m) => m.id)).toEqual(['x-ai/grok-4', 'openai/gpt-4o']);
    expect(r.dropped).toEqual(['no/such-model']);
    expect(r.defaultModel).toBe('openai/gpt-4o');
    expect(resolveModels(catalogue, { defaultPin: 'no/such-model' }).defaultModel).toBe(DEFAULT_MODEL_ID);
  });

  it('lists a self-hosted server as it is, labelled self-hosted', () => {
    const r = resolveModels([{ id: 'llama3.2:3b' }, { id: 'qwen2.5:7b' }], { selfHosted: true });
    expect(r.models.map((m) => [m.id, m.cost, m.name])).toEqual([
      ['llama3.2:3b', 'Self-hosted', 'llama3.2:3b'],
      ['qwen2.5:7b', 'Self-hosted', 'qwen2.5:7b'],
    ]);
    expect(r.defaultModel).toBe('llama3.2:3b');
  });
});

describe('costTier', () => {
  it('reads the pricing strings', () => {
    expect(costTier(pricingOf({ id: 'a', pricing: { prompt: '0', completion: '0' } }))).toBe('Free');
    expect(costTier(pricingOf({ id: 'a', pricing: { prompt: '0.00000015', completion: '0.0000006' } }))).toBe('$');
    expect(costTier(pricingOf({ id: 'a', pricing: { prompt: '0.000003', completion: '0.000015' } }))).toBe('$$$');
    expect(costTier(pricingOf({ id: 'a', pricing: { prompt: '-1', completion: '-1' } }))).toBeNull();
    expect(costTier(pricingOf({ id: 'a' }))).toBeNull();
  });
});

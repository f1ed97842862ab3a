/**
 * The content pages as the e2e tests know them: path, document title (before ' | brand') and a
 * few key figures that must appear on the page exactly.
 */
export interface ContentPage {
  path: string;
  title: string;
  figures: string[];
  /** Hydrated islands the page is expected to ship (others must ship none). */
  islands?: string[];
}

export const contentPages: ContentPage[] = [
  { path: '/video-production', title: 'AI Video Creation', figures: ['Sample videos', 'Vertical shorts', '5-second clip'], islands: ['WatermarkedVideoPlayer'] },
  { path: '/website-design', title: 'Website Design', figures: ['Visit Site', 'Our process'] },
  { path: '/automation', title: 'Automation Solutions', figures: ['up to 90%', 'up to 30%'] },
  { path: '/ai-agent-development', title: 'AI Agent Development', figures: ['Customer service agents', 'Launch and improve'] },
  { path: '/ai-implementation-session', title: 'AI Implementation Session', figures: ['90-minute session', 'Two weeks of email follow-up'] },
  { path: '/market-research', title: 'AI Market Research Agent', figures: ['Competitor analysis', 'Sentiment analysis', 'coming soon'] },
  { path: '/deep-research', title: 'Deep Research', figures: ['Schedule Consultation', 'Expert review', 'Technology trends'] },
  { path: '/lead-connect', title: 'Lead Connect', figures: ['$499/month', '24/7 support'], islands: ['Countdown', 'LeadForm'] },
  { path: '/ask-ai', title: 'Ask AI', figures: ['About our AI', 'Privacy and security'] },
  { path: '/gohighlevel', title: 'GoHighLevel for Agencies', figures: ['$97', '$297', 'Up to 1,000 contacts', '14-day free trial'], islands: ['LeadForm'] },
  { path: '/ai-voiceovers', title: 'AI Voiceovers', figures: ['30+ languages', 'Enterprise plan', 'Tokyo'], islands: ['VoiceCard'] },
  { path: '/ai-script-generation', title: 'AI Script Generation', figures: ['Describe your content', 'Review and export'] },
  { path: '/ai-implementation-course', title: 'AI Implementation Course', figures: ['$599', '$998', '$399', '30-day money-back guarantee', '$199', '2-hour'] },
  { path: '/lifequest-ai', title: 'LifeQuest AI', figures: ['$14.99'] },
  { path: '/ai-lawyer-assistant', title: 'AI Lawyer Assistant', figures: ['Open the App', 'Document review'] },
  { path: '/aila-lawyers', title: 'AILA Lawyers', figures: ['$199.99 per case'] },
  { path: '/ai-doctors-second-opinion', title: "AI Doctor's Second Opinion", figures: ['$39', '$69', '$99', '7-day free trial', '10 AI consultations/month', 'Family sharing for 4'] },
  { path: '/ai-vets-second-opinion', title: "AI Vet's Second Opinion", figures: ['$29', '$49', '$79', '7-day free trial', '20 pet profiles'] },
  { path: '/all-life-with-ai', title: 'All Life with AI', figures: ['170M', 'Career calculator'], islands: ['Quiz', 'CareerCalculator'] },
  { path: '/synapsecore-super-agent', title: 'SynapseCore Super Agent', figures: ['200+', '2,500+', '2,700+', '10,000+', '60 seconds'], islands: ['WatermarkedVideoPlayer'] },
  { path: '/llm-fine-tuning', title: 'LLM Fine-Tuning', figures: ['from $5,000', 'from $25,000', 'Up to 10K training examples', 'Up to 100K training examples', '30 days of support', '90 days of support', '1-year support'] },
  { path: '/vector-vault', title: 'Vector Vault', figures: ['$99', '$499', '5 GB storage', '10k queries a month', 'SAML SSO', 'Markdown'], islands: ['WatermarkedVideoPlayer'] },
  { path: '/ai-superagent', title: 'AI Superagent', figures: ['2,550+', '$49', '5M tokens', '50 flows', '20k tool runs a month', '10 GB storage'], islands: ['WatermarkedVideoPlayer'] },
  { path: '/blog', title: 'Blog', figures: ['Read More', 'Latest articles', 'RSS Feed'] },
  { path: '/privacy-policy', title: 'Privacy Policy', figures: ['24-02-2025', 'under 13'] },
  { path: '/terms-of-service', title: 'Terms of Service', figures: ['24-02-2025'] },
  { path: '/cookie-policy', title: 'Cookie Policy', figures: ['24-02-2025', '_ga', '2 years', '_gid', '24 hours', 'session_id', 'language_pref', '1 year'] },
  { path: '/image-restoration', title: 'Image Restoration & Creation', figures: ['$40', '$99', '$79', '$299', 'Popular', 'Restored & Colorized'], islands: ['BeforeAfterSlider', 'LeadForm', 'PackageButton', 'WatermarkedVideoPlayer'] },
  { path: '/about-our-ai', title: 'About Our AI', figures: ['choose the model for every conversation'] },
  { path: '/faq', title: 'FAQ', figures: ['30-day money-back guarantee'] },
  { path: '/privacy-security', title: 'Privacy & Security', figures: ['Encryption everywhere'] },
];

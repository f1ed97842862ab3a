import { CHAT_MODEL_COUNT } from './chat/models';
import { VIDEO_DURATION_SECONDS } from './tool/video-modes';

/**
 * Every service and product the business offers, in the order of the sidebar's Services group.
 * The home page grid (24 cards), the /services page and the sidebar are all generated from this list.
 */
export type IconName =
  | 'brain' | 'lightbulb' | 'video' | 'layout' | 'workflow' | 'bot' | 'messages' | 'calendar'
  | 'image' | 'wand' | 'chart' | 'search' | 'phone' | 'rocket' | 'pen' | 'mic' | 'graduation'
  | 'stethoscope' | 'paw' | 'heart' | 'target' | 'scale' | 'gavel' | 'network' | 'database' | 'sparkles';

export interface Service {
  /** Route or external URL. */
  href: string;
  title: string;
  /** Shorter label for the sidebar. */
  navLabel: string;
  description: string;
  icon: IconName;
  isNew?: boolean;
  isBeta?: boolean;
  isExternal?: boolean;
}

export const services: readonly Service[] = [
  { href: '/llm-fine-tuning', navLabel: 'LLM Fine-Tuning', title: 'LLM Fine-Tuning', icon: 'brain', isNew: true,
    description: 'Custom language models trained on your data for healthcare, legal, finance and education.' },
  { href: '/ai-consulting', navLabel: 'AI Consulting', title: 'AI Consulting', icon: 'lightbulb',
    description: 'Strategy, readiness assessment, solution selection and team training for practical AI adoption.' },
  { href: '/video-production', navLabel: 'AI Video Creation', title: 'AI Video Creation', icon: 'video',
    description: 'Explainers, ads and vertical shorts produced with AI video models and human editing.' },
  { href: '/website-design', navLabel: 'Website Design', title: 'Website Design', icon: 'layout',
    description: 'Fast, accessible websites that turn visitors into customers.' },
  { href: '/automation', navLabel: 'Automation Solutions', title: 'Automation Solutions', icon: 'workflow',
    description: 'Automate repetitive work and cut process times by up to 90%.' },
  { href: '/ai-agent-development', navLabel: 'AI Agent Development', title: 'AI Agent Development', icon: 'bot',
    description: 'Custom agents that answer customers, qualify leads and run your workflows.' },
  { href: '/ai-agent-hub', navLabel: 'AI Agent Hub', title: 'AI Agent Hub', icon: 'messages', isNew: true,
    description: `Chat with research, writing and data-analysis agents across ${CHAT_MODEL_COUNT} AI models.` },
  { href: '/ai-implementation-session', navLabel: 'AI Implementation Session', title: 'AI Implementation Session', icon: 'calendar',
    description: 'A 90-minute working session that leaves you with a tailored AI plan.' },
  { href: '/image-restoration', navLabel: 'Image Restoration', title: 'Image Restoration & Creation', icon: 'image',
    description: 'Restore, colorize, animate and create images, from one photo to a family archive.' },
  { href: '/image-video-transformation', navLabel: 'Image & Video Transformation', title: 'AI Image & Video Transformation', icon: 'wand', isBeta: true,
    description: `Restore and colorize a photo or turn it into a ${VIDEO_DURATION_SECONDS}-second video, right in your browser.` },
  { href: '/market-research', navLabel: 'Market Research Agent', title: 'AI Market Research Agent', icon: 'chart',
    description: 'Competitor analysis, trends, audience insights and sentiment in customizable reports.' },
  { href: '/deep-research', navLabel: 'Deep Research', title: 'Deep Research', icon: 'search',
    description: 'Analyst-grade research on markets, competitors and technology trends.' },
  { href: '/lead-connect', navLabel: 'Lead Connect', title: 'Lead Connect', icon: 'phone',
    description: 'Recover missed calls automatically and turn them into booked appointments.' },
  { href: '/gohighlevel', navLabel: 'GoHighLevel', title: 'GoHighLevel for Agencies', icon: 'rocket',
    description: 'The all-in-one marketing platform for agencies, with a 14-day free trial.' },
  { href: '/ai-script-generation', navLabel: 'AI Script Generation', title: 'AI Script Generation', icon: 'pen',
    description: 'Scripts for videos, ads and podcasts, generated and refined in minutes.' },
  { href: '/ai-voiceovers', navLabel: 'AI Voiceovers', title: 'AI Voiceovers', icon: 'mic',
    description: 'Natural voiceovers in 30+ languages and accents, with custom voice cloning.' },
  { href: '/ai-implementation-course', navLabel: 'AI Implementation Course', title: 'AI Implementation Course', icon: 'graduation',
    description: 'A 2-hour course that teaches your team to put AI to work.' },
  { href: '/ai-doctors-second-opinion', navLabel: 'AI Doctors Second Opinion', title: "AI Doctor's Second Opinion", icon: 'stethoscope', isNew: true,
    description: 'Understand a diagnosis with an AI second opinion, reviewed by professionals.' },
  { href: '/ai-vets-second-opinion', navLabel: 'AI Vets Second Opinion', title: "AI Vet's Second Opinion", icon: 'paw', isNew: true,
    description: 'A second opinion for your pet’s health, any time of day.' },
  { href: '/all-life-with-ai', navLabel: 'All Life with AI', title: 'All Life with AI', icon: 'heart', isNew: true,
    description: 'How AI is changing work, health and learning, and how to make it work for you.' },
  { href: '/lifequest-ai', navLabel: 'LifeQuest AI', title: 'LifeQuest AI', icon: 'target', isNew: true,
    description: 'A goal-achievement coach that turns ambitions into daily actions.' },
  { href: '/aila-lawyers', navLabel: 'AILA Lawyers', title: 'AILA Lawyers', icon: 'scale', isNew: true,
    description: 'Case-based AI legal help for one flat fee per case.' },
  { href: '/ai-lawyer-assistant', navLabel: 'AI Lawyer Assistant', title: 'AI Lawyer Assistant', icon: 'gavel', isNew: true,
    description: 'Draft, review and research legal documents with an AI assistant.' },
  { href: '/synapsecore-super-agent', navLabel: 'SynapseCore Super Agent', title: 'SynapseCore Super Agent', icon: 'network', isNew: true,
    description: 'One hub that connects 200+ AI models and 2,500+ apps.' },
] as const;

/**
 * pricing/index.js — the providers the simulator prices: one data module each, with its
 * sources and the day they were read (docs/cost.md explains the rules).
 */
import anthropic from './anthropic.js';
import openai from './openai.js';
import deepseek from './deepseek.js';

export const PRICING = { anthropic, openai, deepseek };

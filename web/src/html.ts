import htm from 'htm';
import { h } from 'preact';

/** Tagged templates for Preact: markup without a JSX compile step. */
export const html = htm.bind(h);

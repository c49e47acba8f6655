import { render } from 'preact';
import '../shared/theme.css';
import './style.css';
import { App } from './app';
import { adaptHostDocument } from './host-document';

adaptHostDocument();
const root = document.getElementById('app');
if (root) render(<App />, root);

/** Entry of the self-signup page (`/signup`). */
import './signup-page.js';

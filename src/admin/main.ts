/** Entry of the dashboard page (`/admin`): registers `<admin-app>`, which the page already holds. */
import './components/admin-app.js';

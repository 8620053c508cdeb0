// The friends page: the list (#friends) fetches itself again (htmx, hx-trigger="friends-changed")
// when the lobby socket says a friend's presence or your friends changed. No inline script:
// the CSP is script-src 'self'.
import { debounced, listen } from "./majlis_socket.js";

const list = document.getElementById("friends");
if (list) listen({ friends_changed: debounced(list, "friends-changed") });

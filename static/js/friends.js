// The friends page: the list (#friends) fetches itself again (htmx, hx-trigger="friends-changed")
// when the lobby socket says a friend's presence or your friends changed. No inline script:
// the CSP is script-src 'self'.
import { debounced, listen, showNotice } from "./majlis_socket.js";

const list = document.getElementById("friends");
if (list) {
  const reload = debounced(list, "friends-changed");
  listen({
    friends_changed: reload,
    notice: (frame) => {
      showNotice(frame);
      reload(); // an invitation or an answer is in the list too
    },
  });
}

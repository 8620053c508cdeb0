// Every page of a signed-in player that follows nothing else live (the profile, the Verify
// page, the rules…) still shows the notices sent to them, a friend's invitation or its answer,
// over the lobby socket's notices-only mode (docs/protocol.md). The majlis, the friends list
// and a table have sockets of their own that bring the notices too, and leave this out.
import { listen, showNotice } from "./majlis_socket.js";

listen({ notice: showNotice }, "?only=notices");

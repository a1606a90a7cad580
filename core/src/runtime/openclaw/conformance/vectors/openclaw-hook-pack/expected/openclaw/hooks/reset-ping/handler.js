export default function handler(event) {
  if (event.type === "command" && ["new", "reset"].includes(event.action)) {
    console.log("[reset-ping] session reset");
  }
}

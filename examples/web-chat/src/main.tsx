/** The page's entry: one chat, its id in the URL (`?chat=…`), so a reload or a second tab opens the same conversation. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app";
import "./styles.css";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

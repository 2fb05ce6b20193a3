/** VitePress's default theme with the few rules our pages need (custom.css says which and why). */
import DefaultTheme from "vitepress/theme";
import "./custom.css";

export default DefaultTheme;

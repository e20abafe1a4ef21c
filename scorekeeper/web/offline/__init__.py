"""Working without the network: the service worker (/sw.js) and the page it shows offline (/offline)."""

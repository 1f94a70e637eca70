/**
 * Where each of the reference sweep's findings was published (kairo: one folder per finding,
 * and `issues/MATRIX.md`), at the commit we read: the links the findings in
 * `reference-findings-<gateway>.ts` cite. One finding's write-up can cover several gateways.
 */
const KAIRO = "https://github.com/Atharva-Kanherkar/kairo/blob";
const at = (commit: string, folder: string) => `${KAIRO}/${commit}/issues/${folder}/README.md`;
export const MATRIX_1_83_9 = `${KAIRO}/0364bbec46b8a965ca9b4b4564ed055494bcc08a/issues/MATRIX.md`;

export const K001 = at(
  "c54a7072147c6dd13f94385acda10272a48316b5",
  "001-anthropic-stream-toolcall-translation",
);
export const K002 = at(
  "7e40cca4cb4bbba5677c6cabce0889a8b22a2efc",
  "002-litellm-ollama-toolcall-loss",
);
export const K005 = at(
  "c54a7072147c6dd13f94385acda10272a48316b5",
  "005-switchyard-toolid-sanitizer",
);
export const K006 = at(
  "7ad80e73669d4d0bdb850b5f229b9f3b62ea39d6",
  "006-switchyard-crossformat-losses",
);
export const K007 = at(
  "5184075b67a4a53f28c029d153072ef374f76b94",
  "007-switchyard-toolresult-multimodal-stringified",
);
export const K010 = at(
  "bb35cf3e664d0bb3242b84598f3b43d84243d106",
  "010-switchyard-content-filter-and-reorder",
);
export const K016 = at("c7221b122e44463ccd7e800035313da3ca6de487", "016-thinking-history-lost");
export const K017 = at(
  "c7221b122e44463ccd7e800035313da3ca6de487",
  "017-parallel-tool-flag-dropped",
);
export const K018 = at("c7221b122e44463ccd7e800035313da3ca6de487", "018-user-document-dropped");
export const K020 = at("ef446b94b7dcf148868f17a902ba88fb020ec341", "020-litellm-client-api-key");
export const K022 = at(
  "c4426eb7c38b16590c9794ef845a228fe278a0b7",
  "022-litellm-json-extra-headers",
);
export const K023 = at(
  "f3db89df5e5505794bad04e99f247ff2369e35df",
  "023-switchyard-forwards-org-api-key",
);
export const K041 = at(
  "f453ad1c8db672ebf278bbb64e05ea967a67e2fb",
  "041-litellm-drops-stop-sequences",
);
export const K042 = at(
  "705c5b208a264a5f4d00848895cbbc36ead17fc0",
  "042-gomodel-drops-output-format",
);
export const K043 = at(
  "3ef42f6321db533b8fcab8f7dda73fb475660e35",
  "043-gomodel-drops-parallel-tool-flag",
);
export const K057 = at(
  "8143372cd90fb091d2e8ebbfb1f1f18535c37e24",
  "057-any-llm-drops-thinking-history",
);
export const K058 = at(
  "64d126c199da74f0ff26f7086926224612b2138d",
  "058-any-llm-drops-parallel-tool-flag",
);
export const K059 = at("8143372cd90fb091d2e8ebbfb1f1f18535c37e24", "059-any-llm-drops-is-error");
export const K060 = at(
  "64d126c199da74f0ff26f7086926224612b2138d",
  "060-any-llm-drops-toolresult-image",
);
export const K061 = at(
  "80109643eaa09ad8475949f653eb5c0dd76c10c9",
  "061-any-llm-drops-toolresult-document",
);
export const K064 = at("61353b711ecaf55c23623a9ca26e8f9301cc0c70", "064-litellm-drops-tool-strict");

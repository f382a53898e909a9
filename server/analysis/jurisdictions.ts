/**
 * US states / territories and Canadian provinces, and the AAMVA Issuer Identification Numbers
 * (the 6 digits after "ANSI " in a PDF417 header) that name the issuing jurisdiction.
 */

/** Two-letter code → name for US states, DC, territories and Canadian provinces/territories. */
export const JURISDICTIONS: Readonly<Record<string, string>> = {
  AL: 'Alabama', AK: 'Alaska', AZ: 'Arizona', AR: 'Arkansas', CA: 'California', CO: 'Colorado',
  CT: 'Connecticut', DE: 'Delaware', DC: 'District of Columbia', FL: 'Florida', GA: 'Georgia',
  HI: 'Hawaii', ID: 'Idaho', IL: 'Illinois', IN: 'Indiana', IA: 'Iowa', KS: 'Kansas',
  KY: 'Kentucky', LA: 'Louisiana', ME: 'Maine', MD: 'Maryland', MA: 'Massachusetts',
  MI: 'Michigan', MN: 'Minnesota', MS: 'Mississippi', MO: 'Missouri', MT: 'Montana',
  NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire', NJ: 'New Jersey', NM: 'New Mexico',
  NY: 'New York', NC: 'North Carolina', ND: 'North Dakota', OH: 'Ohio', OK: 'Oklahoma',
  OR: 'Oregon', PA: 'Pennsylvania', RI: 'Rhode Island', SC: 'South Carolina', SD: 'South Dakota',
  TN: 'Tennessee', TX: 'Texas', UT: 'Utah', VT: 'Vermont', VA: 'Virginia', WA: 'Washington',
  WV: 'West Virginia', WI: 'Wisconsin', WY: 'Wyoming', AS: 'American Samoa', GU: 'Guam',
  MP: 'Northern Mariana Islands', PR: 'Puerto Rico', VI: 'U.S. Virgin Islands',
  AB: 'Alberta', BC: 'British Columbia', MB: 'Manitoba', NB: 'New Brunswick',
  NL: 'Newfoundland and Labrador', NS: 'Nova Scotia', NT: 'Northwest Territories', NU: 'Nunavut',
  ON: 'Ontario', PE: 'Prince Edward Island', QC: 'Quebec', SK: 'Saskatchewan', YT: 'Yukon',
};

/** Canadian province codes (for AAMVA date order and postal code shape). */
export const CANADIAN = new Set(['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT']);

/** AAMVA IIN → jurisdiction code (AAMVA DL/ID Card Design Standard, IIN table). */
export const AAMVA_IIN: Readonly<Record<string, string>> = {
  '636000': 'VA', '636001': 'NY', '636002': 'MA', '636003': 'MD', '636004': 'NC', '636005': 'SC',
  '636006': 'CT', '636007': 'LA', '636008': 'MT', '636009': 'NM', '636010': 'FL', '636011': 'DE',
  '636012': 'ON', '636013': 'NS', '636014': 'CA', '636015': 'TX', '636016': 'NL', '636017': 'NB',
  '636018': 'IA', '636019': 'GU', '636020': 'CO', '636021': 'AR', '636022': 'KS', '636023': 'OH',
  '636024': 'VT', '636025': 'PA', '636026': 'AZ', '636028': 'BC', '636029': 'OR', '636030': 'MO',
  '636031': 'WI', '636032': 'MI', '636033': 'AL', '636034': 'ND', '636035': 'IL', '636036': 'NJ',
  '636037': 'IN', '636038': 'MN', '636039': 'NH', '636040': 'UT', '636041': 'ME', '636042': 'SD',
  '636043': 'DC', '636044': 'SK', '636045': 'WA', '636046': 'KY', '636047': 'HI', '636048': 'MB',
  '636049': 'NV', '636050': 'ID', '636051': 'MS', '636052': 'RI', '636053': 'TN', '636054': 'NE',
  '636055': 'GA', '636058': 'OK', '636059': 'AK', '636060': 'WY', '636061': 'WV', '636062': 'VI',
  '604427': 'AS', '604428': 'QC', '604429': 'YT', '604430': 'MP', '604431': 'PR', '604432': 'AB',
  '604426': 'PE',
};

/**
 * Listings of the ESEF filers among the demo's reports that `companies_financedatabase_home_listings.csv`
 * leaves out (it keeps Mega, Large and Mid Cap home listings only): Amper, Bankinter, Berkeley
 * Energia and Prosegur, on the Madrid exchange. The rows are FinanceDatabase's own
 * (GitHub JerBouma/FinanceDatabase, `database/equities/MCE.csv`, commit
 * 268be5d29898a12dbd6b1f006a0deb55b81a5a29 — the source and commit of the home-listings file; MIT,
 * © 2023 Jeroen Bouma), as they are but for the `summary` column, and Bankinter's ISIN and CUSIP:
 * FinanceDatabase gives it those of its US depositary receipt (US0664603042), not the Madrid share's,
 * which is why the home-listings file's ISIN rule left Bankinter out.
 */
export const ESEF_FILER_LISTINGS_FILE = 'financedatabase MCE.csv (ESEF filers)';

/** The rows, in the home-listings file's columns. */
export const ESEF_FILER_LISTINGS_CSV = `symbol,name,currency,sector,industry_group,industry,exchange,mic,market,country,state,city,zipcode,website,market_cap,isin,cusip,figi,composite_figi,shareclass_figi,delisted
AMP.MC,"Amper, S.A.",EUR,Information Technology,Software & Services,IT Services,MCE,XMAD,Sociedad de Bolsas (SIBE),Spain,,Madrid,28223,http://www.grupoamper.com,Micro Cap,ES0109260531,,BBG000BBFRH8,BBG000BBFPC7,BBG001S5XKT3,False
BKT.MC,"Bankinter, S.A.",EUR,Financials,Banks,Banks,MCE,XMAD,Sociedad de Bolsas (SIBE),Spain,,Madrid,28046,http://www.bankinter.com,Mid Cap,,,BBG000BCN3R9,BBG000BCN0T3,BBG001S67RN1,False
BKY.MC,Berkeley Energia Limited,EUR,Materials,Materials,Metals & Mining,MCE,XMAD,Sociedad de Bolsas (SIBE),Spain,,Madrid,28020,http://www.berkeleyenergia.com,Micro Cap,AU000000BKY0,,BBG00LG7FYX3,BBG00LG7FYR0,BBG001SF8YW5,False
PSG.MC,Prosegur Compania de Seguridad SA,EUR,Industrials,Commercial & Professional Services,Professional Services,MCE,XMAD,Sociedad de Bolsas (SIBE),Spain,,Madrid,28007,http://www.prosegur.com,Small Cap,ES0175438003,,BBG000BCXK09,BBG000BCXH60,BBG001S6BXX2,False
`;

# One-off conversion of the study datasets to CSV (run in /tmp/sdata after extracting the packages).
import csv, gzip, json, os, sys
out = sys.argv[1]
SK = 'x/usr/lib/python3/dist-packages/sklearn/datasets/data/'
SM = 'x/usr/lib/python3/dist-packages/statsmodels/datasets/'
VG = 'package/data/'
def write(name, header, rows):
    with open(os.path.join(out, name), 'w', newline='') as f:
        w = csv.writer(f, lineterminator='\n'); w.writerow(header); w.writerows(rows)
# digits: 64 pixel counts in [0, 16]; target digit_ge_5 = 1 if the digit is 5..9
rows = [l.strip().split(',') for l in gzip.open(SK + 'digits.csv.gz', 'rt') if l.strip()]
write('digits.csv', ['p%02d' % i for i in range(64)] + ['digit_ge_5'], [r[:64] + ['1' if int(r[64]) >= 5 else '0'] for r in rows])
# diabetes: raw (unstandardised) features + target
X = [l.split() for l in gzip.open(SK + 'diabetes_data_raw.csv.gz', 'rt') if l.strip()]
y = [l.strip() for l in gzip.open(SK + 'diabetes_target.csv.gz', 'rt') if l.strip()]
write('diabetes.csv', ['age', 'sex', 'bmi', 'bp', 's1', 's2', 's3', 's4', 's5', 's6', 'progression'], [a + [b] for a, b in zip(X, y)])
# anes96: tab separated with quoted names; keep the 9 documented predictors and vote
r = list(csv.reader(open(SM + 'anes96/anes96.csv'), delimiter='\t'))
hdr = [h.strip("'") for h in r[0]]
keep = ['popul', 'TVnews', 'selfLR', 'ClinLR', 'DoleLR', 'PID', 'age', 'educ', 'income', 'vote']
write('anes96.csv', keep, [[row[hdr.index(k)] for k in keep] for row in r[1:] if row])
# engel
r = list(csv.reader(open(SM + 'engel/engel.csv')))
write('engel.csv', ['income', 'foodexp'], r[1:])
# seattle weather 2012-2013: features + sun (1 if weather == sun)
r = [d for d in csv.DictReader(open(VG + 'seattle-weather.csv')) if d['date'][:4] in ('2012', '2013')]
write('seattle-weather.csv', ['precipitation', 'temp_max', 'temp_min', 'wind', 'sun'],
      [[d['precipitation'], d['temp_max'], d['temp_min'], d['wind'], '1' if d['weather'] == 'sun' else '0'] for d in r])
# cars: numeric columns, missing values left empty (rows dropped by the parser)
def cell(v): return '' if v is None else str(v)
cars = json.load(open(VG + 'cars.json'))
write('cars.csv', ['cylinders', 'displacement', 'horsepower', 'weight_lbs', 'acceleration', 'year', 'mpg'],
      [[cell(c['Cylinders']), cell(c['Displacement']), cell(c['Horsepower']), cell(c['Weight_in_lbs']), cell(c['Acceleration']), c['Year'][:4], cell(c['Miles_per_Gallon'])] for c in cars])
# gapminder: fertility, year -> life expectancy
g = json.load(open(VG + 'gapminder.json'))
write('gapminder.csv', ['fertility', 'year', 'life_expect'], [[cell(d['fertility']), d['year'], cell(d['life_expect'])] for d in g])
# flights (first 1000 rows of flights-2k): distance, departure hour (local, fractional), month -> delayed (delay > 15 min, the US DOT definition)
f = json.load(open(VG + 'flights-2k.json'))[:1000]
def hour(s): hm = s.split(' ')[1].split(':'); return '%.4f' % (int(hm[0]) + int(hm[1]) / 60)
write('flights.csv', ['distance', 'dep_hour', 'month', 'delayed'], [[d['distance'], hour(d['date']), int(d['date'][5:7]), '1' if d['delay'] > 15 else '0'] for d in f])
